// Interval, Box and Boxes (VINTA paper sections 4.2 and 5).

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/term.hpp"

using namespace precis;

namespace box_test {

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
const Bound inf = Bound::pos_inf();
const Bound ninf = Bound::neg_inf();

Interval iv(std::int64_t lo, std::int64_t hi) { return {lo, hi}; }

Box box(std::initializer_list<std::pair<VarId, Interval>> kv) {
  Box b;
  for (const auto& [v, i] : kv) b.set(v, i);
  return b;
}

// x, y, z integers and p a Boolean, in a fresh manager.
struct Vars {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId z = em.declare("z", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  Term X = em.var(x), Y = em.var(y), Z = em.var(z), P = em.var(p);
  Term c(std::int64_t v) { return em.int_val(v); }
};

std::string to_str(const Box& b, const ExprManager& em) {
  std::ostringstream os;
  print(os, b, em);
  return os.str();
}
std::string to_str(const Boxes& b, const ExprManager& em) {
  std::ostringstream os;
  print(os, b, em);
  return os.str();
}

}  // namespace

// ---- Interval ------------------------------------------------------------------------

TEST_CASE("Interval domain satisfies the lattice laws") {
  const std::vector<Interval> samples{
      Interval::bottom(), Interval::top(), iv(0, 0),         iv(0, 10),       iv(5, 15),
      iv(-3, -1),         iv(kMin, kMax),  {ninf, Bound(3)}, {Bound(2), inf}, iv(11, 11)};
  testing::check_lattice_laws(IntervalDomain{}, samples);
  testing::check_lattice_laws(IntervalDomain{Thresholds{-1, 0, 1, 99, 100, 101}}, samples);
  // Finite extremes are not infinities: the full int64 range is below top, not equal.
  CHECK(iv(kMin, kMax).leq(Interval::top()));
  CHECK_FALSE(Interval::top().leq(iv(kMin, kMax)));
  CHECK(iv(0, 10).join(iv(20, 30)) == iv(0, 30));
  CHECK(iv(0, 10).meet(iv(20, 30)).is_bottom());
  CHECK(iv(0, 10).meet(iv(5, 30)) == iv(5, 10));
  CHECK(iv(3, 2).is_bottom());
}

TEST_CASE("Interval widening terminates on an increasing chain, thresholds first") {
  // x := 0; loop { x := x + 1 }: the head value is x_{k+1} = x_k widen (x_k join x_k + 1).
  auto run = [](const IntervalDomain& d, Interval x, int& steps) {
    for (steps = 0; steps < 100; ++steps) {
      const Interval next = d.widen(x, d.join(x, x + Interval::constant(1)));
      if (next == x) break;
      x = next;
    }
    return x;
  };
  int steps = 0;
  CHECK(run(IntervalDomain{}, iv(0, 0), steps) == Interval{Bound(0), inf});
  CHECK(steps == 1);

  // With thresholds {99, 100, 101} (the constant 100 and its neighbours) a growing bound
  // stops at each threshold before going to infinity.
  Thresholds t;
  t.add_constant(100);
  CHECK(t.size() == 3);
  const IntervalDomain dt{t};
  CHECK(dt.widen(iv(0, 0), iv(0, 1)) == iv(0, 99));
  CHECK(dt.widen(iv(0, 99), iv(0, 100)) == iv(0, 100));
  CHECK(dt.widen(iv(0, 100), iv(0, 101)) == iv(0, 101));
  CHECK(dt.widen(iv(0, 101), iv(0, 102)) == Interval{Bound(0), inf});
  CHECK(dt.widen(iv(0, 0), iv(-5, 0)) == Interval{ninf, Bound(0)});
  CHECK(run(dt, iv(0, 0), steps) == Interval{Bound(0), inf});
  CHECK(steps == 4);  // 99, 100, 101, +oo
  // Decreasing bounds are thresholded from below.
  CHECK(dt.widen(iv(100, 200), iv(50, 200)) == Interval{ninf, Bound(200)});
  CHECK(dt.widen(iv(102, 200), iv(101, 200)) == iv(101, 200));
  CHECK(dt.widen(iv(102, 200), iv(100, 200)) == iv(100, 200));
}

TEST_CASE("Interval narrowing refines only infinite bounds") {
  CHECK(Interval(Bound(0), inf).narrow(iv(0, 100)) == iv(0, 100));
  CHECK(Interval::top().narrow(iv(-4, 4)) == iv(-4, 4));
  CHECK(iv(0, 10).narrow(iv(2, 5)) == iv(0, 10));
  CHECK(iv(0, 10).narrow(Interval::bottom()).is_bottom());
  // A decreasing chain under narrowing is finite: a second narrowing changes nothing.
  const Interval once = Interval::top().narrow(iv(-4, 4));
  CHECK(once.narrow(iv(-1, 1)) == once);
}

TEST_CASE("Interval arithmetic is sound and exact on small ranges (brute force)") {
  // Every interval within [-6, 6] for a and [-4, 4] for b; every concrete result must lie
  // in the abstract one, and +, -, *, / (for b without 0) must give the exact hull.
  int unsound = 0;
  int inexact = 0;
  for (std::int64_t al = -6; al <= 6; ++al)
    for (std::int64_t ah = al; ah <= 6; ++ah)
      for (std::int64_t bl = -4; bl <= 4; ++bl)
        for (std::int64_t bh = bl; bh <= 4; ++bh) {
          const Interval a = iv(al, ah);
          const Interval b = iv(bl, bh);
          const Interval abs[6] = {a + b, a - b, a * b, div(a, b), mod(a, b), rem(a, b)};
          Interval hull[6] = {Interval::bottom(), Interval::bottom(), Interval::bottom(),
                              Interval::bottom(), Interval::bottom(), Interval::bottom()};
          for (std::int64_t x = al; x <= ah; ++x)
            for (std::int64_t y = bl; y <= bh; ++y) {
              const OptValue conc[6] = {arith::add(x, y), arith::sub(x, y), arith::mul(x, y),
                                        arith::div(x, y), arith::mod(x, y), arith::rem(x, y)};
              for (int k = 0; k < 6; ++k) {
                if (!conc[k]) continue;  // division by zero: unspecified
                hull[k] = hull[k].join(Interval::constant(*conc[k]));
                if (!abs[k].contains(*conc[k])) {
                  ++unsound;
                  INFO("op " << k << " a=" << a << " b=" << b << " x=" << x << " y=" << y);
                  CHECK(abs[k].contains(*conc[k]));
                }
              }
            }
          for (int k = 0; k < 4; ++k) {
            if (k == 3 && b.contains(0)) continue;
            if (abs[k] != hull[k]) ++inexact;
          }
          // mod and rem: exact for a constant divisor when a stays in one period.
          if (bl == bh && bl != 0) {
            const std::int64_t n = bl < 0 ? -bl : bl;
            const bool one_period = arith::div(al, n) == arith::div(ah, n);
            if (one_period && (abs[4] != hull[4] || abs[5] != hull[5])) ++inexact;
          }
        }
  CHECK(unsound == 0);
  CHECK(inexact == 0);
}

TEST_CASE("Interval division and modulus follow the Euclidean table of the .cfa format") {
  // docs/cfa-format.md: 7/3=2, -7/3=-3, 7/-3=-2, -7/-3=3; mod 1 2 1 2; rem 1 2 -1 -2.
  const std::int64_t as[4] = {7, -7, 7, -7};
  const std::int64_t bs[4] = {3, 3, -3, -3};
  const std::int64_t qs[4] = {2, -3, -2, 3};
  const std::int64_t ms[4] = {1, 2, 1, 2};
  const std::int64_t rs[4] = {1, 2, -1, -2};
  for (int i = 0; i < 4; ++i) {
    const Interval a = Interval::constant(as[i]);
    const Interval b = Interval::constant(bs[i]);
    CHECK(div(a, b) == Interval::constant(qs[i]));
    CHECK(mod(a, b) == Interval::constant(ms[i]));
    CHECK(rem(a, b) == Interval::constant(rs[i]));
  }
  // A divisor that may be 0 gives top; mod is never negative.
  CHECK(div(iv(1, 5), iv(-1, 1)).is_top());
  CHECK(mod(iv(1, 5), iv(0, 3)).is_top());
  CHECK(mod(iv(-100, 100), iv(3, 3)) == iv(0, 2));
  CHECK(mod(iv(-100, 100), iv(-5, 7)).is_top());
  CHECK(mod(Interval::top(), iv(-7, -2)) == iv(0, 6));
  CHECK(mod(iv(0, 4), iv(5, 9)) == iv(0, 4));
  CHECK(rem(Interval::top(), iv(-7, -2)) == iv(-6, 0));
  // Unbounded operands.
  CHECK(div(Interval{Bound(0), inf}, iv(2, 4)) == Interval{Bound(0), inf});
  CHECK(div(iv(-7, -7), Interval{Bound(3), inf}) == iv(-3, -1));
  CHECK(div(iv(10, 20), Interval{ninf, Bound(-5)}) == iv(-4, 0));
  CHECK(div(Interval::top(), iv(2, 2)).is_top());
}

TEST_CASE("Interval arithmetic never overflows: bounds round outwards") {
  CHECK(iv(kMax - 1, kMax) + iv(1, 1) == Interval{Bound(kMax), inf});
  CHECK(iv(kMin, kMin + 1) - iv(1, 1) == Interval{ninf, Bound(kMin)});
  CHECK(-iv(kMin, 0) == Interval{Bound(0), inf});
  CHECK(iv(kMin, kMin) * iv(-1, -1) == Interval{Bound(kMax), inf});
  CHECK(iv(kMax, kMax) * iv(2, 3) == Interval{Bound(kMax), inf});
  CHECK(iv(kMin, kMax) * iv(-2, 2) == Interval{ninf, inf});
  CHECK(div(iv(kMin, kMin), iv(-1, -1)) == Interval{Bound(kMax), inf});
  CHECK(mod(iv(kMin, kMax), iv(kMin, kMin)) == iv(0, kMax));
  CHECK(rem(iv(kMin, kMin), iv(kMin, kMin)) == iv(-kMax, 0));  // sound: the value is 0
  CHECK(Interval{Bound(0), inf} * Interval::constant(0) == iv(0, 0));
  CHECK(Interval::top() * iv(2, 3) == Interval::top());
  CHECK(inverse_mul(iv(1, 10), 3) == iv(1, 3));
  CHECK(inverse_mul(iv(1, 10), -3) == iv(-3, -1));
  CHECK(inverse_mul(iv(1, 2), 3).is_bottom());
  CHECK(inverse_mul(iv(-1, 2), 0).is_top());
}

// ---- Box -----------------------------------------------------------------------------

TEST_CASE("Box domain satisfies the lattice and hashing laws") {
  const BoxDomain d;
  const std::vector<Box> samples{d.bottom(),
                                 d.top(),
                                 box({{0, iv(0, 0)}}),
                                 box({{0, iv(0, 10)}}),
                                 box({{0, iv(5, 15)}, {1, iv(1, 1)}}),
                                 box({{1, iv(0, 3)}}),
                                 box({{0, iv(0, 10)}, {1, iv(0, 3)}}),
                                 box({{0, {Bound(0), inf}}, {2, iv(-7, -7)}}),
                                 box({{2, {ninf, Bound(0)}}})};
  testing::check_lattice_laws(d, samples);
  testing::check_hashing_laws(d, samples);
  testing::check_lattice_laws(BoxDomain{Thresholds{0, 9, 10, 11}}, samples);
  // Only variables bounded in both stay bounded under join; meet keeps all.
  CHECK(d.join(box({{0, iv(0, 1)}, {1, iv(0, 0)}}), box({{0, iv(5, 6)}})) == box({{0, iv(0, 6)}}));
  CHECK(d.meet(box({{0, iv(0, 1)}}), box({{1, iv(2, 2)}})) == box({{0, iv(0, 1)}, {1, iv(2, 2)}}));
  CHECK(d.meet(box({{0, iv(0, 1)}}), box({{0, iv(2, 2)}})).is_bottom());
  CHECK(box({{0, Interval::bottom()}}).is_bottom());
  CHECK(box({{0, Interval::top()}}).is_top());
}

TEST_CASE("Box post: assignments by interval arithmetic, havoc, skip") {
  Vars v;
  const BoxDomain d;
  const Box s = box({{v.x, iv(-3, 5)}, {v.y, iv(2, 4)}});

  CHECK(d.post(s, Skip{}) == s);
  CHECK(d.post(s, Assign{v.z, v.em.add(v.X, v.Y)}).get(v.z) == iv(-1, 9));
  CHECK(d.post(s, Assign{v.z, v.em.mul(v.X, v.Y)}).get(v.z) == iv(-12, 20));
  CHECK(d.post(s, Assign{v.z, v.em.div(v.X, v.c(-2))}).get(v.z) == iv(-2, 2));
  CHECK(d.post(s, Assign{v.z, v.em.mod(v.X, v.Y)}).get(v.z) == iv(0, 3));
  CHECK(d.post(s, Assign{v.z, v.em.neg(v.X)}).get(v.z) == iv(-5, 3));
  // x := x - x is 0 in reality; intervals are non-relational, so [-8, 8] (sound).
  CHECK(d.post(s, Assign{v.x, v.em.sub(v.X, v.X)}).get(v.x) == iv(-8, 8));
  // Each branch of an ite is evaluated under its side of the condition.
  const Term abs_x = v.em.ite(v.em.gt(v.X, v.c(0)), v.X, v.em.neg(v.X));
  CHECK(d.post(s, Assign{v.z, abs_x}).get(v.z) == iv(0, 5));
  // Booleans are [0, 1]: decided when the box decides the condition.
  CHECK(d.post(s, Assign{v.p, v.em.gt(v.Y, v.c(1))}).get(v.p) == iv(1, 1));
  CHECK(d.post(s, Assign{v.p, v.em.gt(v.Y, v.c(4))}).get(v.p) == iv(0, 0));
  CHECK(d.post(s, Assign{v.p, v.em.gt(v.X, v.c(0))}).get(v.p) == iv(0, 1));  // undecided
  // Havoc forgets; a bottom box stays bottom.
  CHECK(d.post(s, Havoc{v.x}) == box({{v.y, iv(2, 4)}}));
  CHECK(d.post(d.bottom(), Assign{v.x, v.c(1)}).is_bottom());
  // Uninitialised (top) operands give top, not a wrong constant.
  CHECK(d.post(d.top(), Assign{v.z, v.em.add(v.X, v.c(1))}).get(v.z).is_top());
}

TEST_CASE("Box assume propagates linear constraints") {
  Vars v;
  const BoxDomain d;
  auto& em = v.em;

  SUBCASE("x + y <= 3 with x in [0, 10], y in [2, 5] gives x in [0, 1], y in [2, 3]") {
    const Box s = box({{v.x, iv(0, 10)}, {v.y, iv(2, 5)}});
    const Box r = d.assume(s, em.le(em.add(v.X, v.Y), v.c(3)));
    CHECK(r.get(v.x) == iv(0, 1));
    CHECK(r.get(v.y) == iv(2, 3));
  }
  SUBCASE("coefficients, constants on both sides, and strict comparisons") {
    const Box s = box({{v.x, iv(-100, 100)}, {v.y, iv(1, 2)}});
    // 2*x + 1 < y  =>  2x <= y - 2 <= 0  =>  x <= 0
    const Box r = d.assume(s, em.lt(em.add(em.mul(v.c(2), v.X), v.c(1)), v.Y));
    CHECK(r.get(v.x) == iv(-100, 0));
    CHECK(r.get(v.y) == iv(1, 2));
    // 3*x = y + 4 with y in [1, 2]: 3x in [5, 6] => x = 2, then y = 2.
    const Box e = d.assume(s, em.eq(em.mul(v.c(3), v.X), em.add(v.Y, v.c(4))));
    CHECK(e.get(v.x) == iv(2, 2));
    CHECK(e.get(v.y) == iv(2, 2));
  }
  SUBCASE("negations go into NNF") {
    const Box s = box({{v.x, iv(0, 10)}});
    CHECK(d.assume(s, em.not_(em.gt(v.X, v.c(5)))).get(v.x) == iv(0, 5));
    CHECK(d.assume(s, em.not_(em.or_(em.lt(v.X, v.c(3)), em.gt(v.X, v.c(7))))).get(v.x) ==
          iv(3, 7));
    CHECK(d.assume(s, em.not_(em.and_(em.ge(v.X, v.c(3)), em.le(v.X, v.c(10))))).get(v.x) ==
          iv(0, 2));
    CHECK(d.assume(s, em.not_(em.imply(em.ge(v.X, v.c(4)), em.ge(v.X, v.c(6))))).get(v.x) ==
          iv(4, 5));
  }
  SUBCASE("conjunctions propagate between constraints, to bottom when infeasible") {
    const Box s = box({{v.x, iv(0, 10)}, {v.y, iv(0, 10)}});
    const Box r = d.assume(s, em.and_(em.le(v.X, v.Y), em.ge(v.X, v.c(7))));
    CHECK(r.get(v.x) == iv(7, 10));
    CHECK(r.get(v.y) == iv(7, 10));
    CHECK(d.assume(s, em.and_(em.lt(v.X, v.Y), em.lt(v.Y, v.X))).is_bottom());
    CHECK(d.assume(s, em.gt(v.X, v.c(10))).is_bottom());
    // Over unbounded ranges the same cycle only moves bounds one step per round: the
    // round cap stops it (sound: the result is above the true bottom).
    CHECK_FALSE(d.assume(d.top(), em.and_(em.lt(v.X, v.Y), em.lt(v.Y, v.X))).is_bottom());
  }
  SUBCASE("disjunctions are joined by Box") {
    const Box s = box({{v.x, iv(-20, 20)}});
    const Box r = d.assume(s, em.or_(em.eq(v.X, v.c(0)), em.eq(v.X, v.c(10))));
    CHECK(r.get(v.x) == iv(0, 10));
    CHECK(d.assume(r, em.eq(v.X, v.c(5))).get(v.x) == iv(5, 5));  // the loss Boxes avoids
  }
  SUBCASE("disequality trims a bound; Booleans; iff") {
    const Box s = box({{v.x, iv(0, 5)}});
    CHECK(d.assume(s, em.neq(v.X, v.c(0))).get(v.x) == iv(1, 5));
    CHECK(d.assume(s, em.neq(v.X, v.c(5))).get(v.x) == iv(0, 4));
    CHECK(d.assume(s, em.neq(v.X, v.c(3))).get(v.x) == iv(0, 5));  // no holes
    CHECK(d.assume(box({{v.x, iv(3, 3)}}), em.neq(v.X, v.c(3))).is_bottom());
    CHECK(d.assume(s, v.P).get(v.p) == iv(1, 1));
    CHECK(d.assume(s, em.not_(v.P)).get(v.p) == iv(0, 0));
    // p <-> x > 2 under p: x in [3, 5].
    const Box q = d.assume(s, v.P);
    CHECK(d.assume(q, em.iff(v.P, em.gt(v.X, v.c(2)))).get(v.x) == iv(3, 5));
    CHECK(d.assume(q, em.eq(v.P, em.gt(v.X, v.c(2)))).get(v.x) == iv(3, 5));
    CHECK(d.assume(q, em.xor_(v.P, em.gt(v.X, v.c(2)))).get(v.x) == iv(0, 2));
    CHECK(d.assume(s, em.false_()).is_bottom());
    CHECK(d.assume(s, em.true_()) == s);
  }
  SUBCASE("non-linear atoms: forward check only, never unsound") {
    const Box s = box({{v.x, iv(0, 5)}, {v.y, iv(0, 5)}});
    // x*y + x <= 3: the product is an opaque atom in [0, 25]; x still gets x <= 3.
    const Box r = d.assume(s, em.le(em.add(em.mul(v.X, v.Y), v.X), v.c(3)));
    CHECK(r.get(v.x) == iv(0, 3));
    CHECK(r.get(v.y) == iv(0, 5));
    CHECK(d.assume(s, em.eq(em.mod(v.X, v.c(7)), v.c(6))).is_bottom());  // mod in [0, 5]
    CHECK(d.assume(s, em.eq(em.mod(v.X, v.c(2)), v.c(0))) == s);
  }
}

TEST_CASE("Box analysis of a counting loop: widening, thresholds, narrowing") {
  // x := 0; while (x < 100) x := x + 1; the head value by the join-based WIDENWITH.
  Vars v;
  auto& em = v.em;
  const Operation guard = Assume{em.lt(v.X, v.c(100))};
  const Operation exit = Assume{em.ge(v.X, v.c(100))};
  const Operation incr = Assign{v.x, em.add(v.X, v.c(1))};
  const Box init = box({{v.x, iv(0, 0)}});
  auto head = [&](const BoxDomain& d, int& steps) {
    Box h = init;
    for (steps = 0; steps < 100; ++steps) {
      const Box body = d.post(d.post(h, guard), incr);
      const Box next = d.widen_with(h, d.join(init, body));
      if (d.leq(next, h)) break;
      h = next;
    }
    return h;
  };
  int steps = 0;
  const BoxDomain plain;
  const Box h = head(plain, steps);
  CHECK(h.get(v.x) == Interval{Bound(0), inf});
  CHECK(steps <= 2);
  CHECK(plain.post(h, exit).get(v.x) == Interval{Bound(100), inf});
  // One narrowing step recovers the guard's bound.
  const Box n = plain.narrow(h, plain.join(init, plain.post(plain.post(h, guard), incr)));
  CHECK(n.get(v.x) == iv(0, 100));
  CHECK(plain.post(n, exit).get(v.x) == iv(100, 100));

  // Thresholds from the program's constants (0, 1, 2 from the increment; 99, 100, 101
  // from the guard): the bound stops at each threshold it passes, and 100 is inductive,
  // so the exit is exactly x = 100 without narrowing.
  Thresholds t;
  add_constants(t, guard);
  add_constants(t, incr);
  CHECK(std::vector<std::int64_t>(t.values().begin(), t.values().end()) ==
        std::vector<std::int64_t>{0, 1, 2, 99, 100, 101});
  const BoxDomain with_t{t};
  const Box ht = head(with_t, steps);
  CHECK(ht.get(v.x) == iv(0, 100));
  CHECK(steps == 4);  // thresholds 1, 2, 99, 100 in turn
  CHECK(with_t.post(ht, exit).get(v.x) == iv(100, 100));
}

TEST_CASE("Box WIDENWITH (join-based, VINTA section 4.2)") {
  Vars v;
  const BoxDomain d;
  const Box x0 = box({{v.x, iv(0, 0)}, {v.y, iv(5, 5)}});
  const Box y1 = box({{v.x, iv(1, 1)}, {v.y, iv(5, 5)}});
  // x widen (x join y): x grows without bound, y is stable.
  const Box w = d.widen_with(x0, y1);
  CHECK(w == box({{v.x, {Bound(0), inf}}, {v.y, iv(5, 5)}}));
  // Eq. (1): with no x, y itself; the set form uses the last element.
  CHECK(d.widen_with(std::span<const Box>{}, y1) == y1);
  const Box xs[2] = {box({{v.x, iv(-9, -9)}}), x0};
  CHECK(d.widen_with(xs, y1) == w);
  // Def. 3 soundness: gamma(X) or gamma(y) implies gamma(X) or gamma(z).
  CHECK(d.leq(y1, w));
}

TEST_CASE("Box to_formula and print") {
  Vars v;
  auto& em = v.em;
  const BoxDomain d;
  CHECK(to_formula(d.bottom(), em) == em.false_());
  CHECK(to_formula(d.top(), em) == em.true_());
  const Box b = box({{v.x, iv(0, 10)}, {v.y, {ninf, Bound(-1)}}, {v.z, iv(7, 7)}, {v.p, iv(1, 1)}});
  const std::vector<Term> parts{em.le(v.c(0), v.X), em.le(v.X, v.c(10)), em.le(v.Y, v.c(-1)),
                                em.eq(v.Z, v.c(7)), v.P};
  CHECK(to_formula(b, em) == em.conj(parts));
  // The formula holds exactly for the points of the box (checked on a grid).
  const Term f = to_formula(box({{v.x, iv(-1, 2)}, {v.y, iv(3, 3)}}), em);
  for (std::int64_t xv = -3; xv <= 4; ++xv)
    for (std::int64_t yv = 2; yv <= 4; ++yv) {
      const auto val = [&](VarId id) -> OptValue { return id == v.x ? xv : yv; };
      CHECK((evaluate(f, val) == std::int64_t{1}) == (-1 <= xv && xv <= 2 && yv == 3));
    }
  CHECK(to_str(b, em) == "{x: [0, 10], y: [-oo, -1], z: [7, 7], p: [1, 1]}");
  CHECK(to_str(d.bottom(), em) == "bottom");
  CHECK(to_str(d.top(), em) == "top");
}

TEST_CASE("Box set difference is exact over the integers") {
  const Box a = box({{0, iv(0, 10)}, {1, iv(0, 10)}});
  const Box b = box({{0, iv(3, 5)}, {1, iv(4, 20)}});
  const std::vector<Box> pieces = BoxDomain::subtract(a, b);
  // Every point of a is in exactly one of (pieces, b), and no piece meets b.
  const BoxDomain d;
  for (std::int64_t x = -1; x <= 11; ++x)
    for (std::int64_t y = -1; y <= 11; ++y) {
      const Box pt = box({{0, Interval::constant(x)}, {1, Interval::constant(y)}});
      int in_pieces = 0;
      for (const Box& p : pieces) in_pieces += d.leq(pt, p) ? 1 : 0;
      const bool in_a = d.leq(pt, a);
      const bool in_b = d.leq(pt, b);
      CHECK(in_pieces == (in_a && !in_b ? 1 : 0));
    }
  CHECK(BoxDomain::subtract(a, box({{0, iv(20, 30)}})) == std::vector<Box>{a});
  CHECK(BoxDomain::subtract(a, BoxDomain{}.top()).empty());
}

// ---- Boxes ---------------------------------------------------------------------------

TEST_CASE("Boxes domain satisfies the lattice laws") {
  const BoxesDomain d;
  const Box b0 = box({{0, iv(0, 0)}});
  const Box b10 = box({{0, iv(10, 10)}});
  const Box b05 = box({{0, iv(0, 5)}});
  const Box by = box({{1, iv(1, 2)}});
  const Box bxy = box({{0, iv(3, 4)}, {1, iv(0, 1)}});
  const std::vector<Box> l1{b0, b10};
  const std::vector<Box> l2{b05, by};
  const std::vector<Box> l3{b10, bxy};
  const std::vector<Boxes> samples{d.bottom(), d.top(),    Boxes(b0),  Boxes(b10), Boxes(b05),
                                   d.make(l1), d.make(l2), d.make(l3), Boxes(by)};
  testing::check_lattice_laws(d, samples);
  // Join is union with subsumption: [0,0] disappears under [0,5].
  const Boxes j = d.join(d.make(l1), Boxes(b05));
  CHECK(j.size() == 2);
  CHECK(d.leq(Boxes(b0), j));
  CHECK_FALSE(d.leq(Boxes(box({{0, iv(6, 9)}})), j));
  // leq is the box-by-box check: [0, 10] is covered by [0, 5] | [6, 10] in reality, but
  // not box by box (documented incompleteness).
  const std::vector<Box> halves{b05, box({{0, iv(6, 10)}})};
  CHECK_FALSE(d.leq(Boxes(box({{0, iv(0, 10)}})), d.make(halves)));
  // Meet distributes.
  const Boxes m = d.meet(d.make(l1), Boxes(b05));
  CHECK(m == Boxes(b0));
}

TEST_CASE("Boxes keeps a disjunction that Box loses") {
  Vars v;
  auto& em = v.em;
  const BoxDomain bd;
  const BoxesDomain d;
  const Term x0_or_x10 = em.or_(em.eq(v.X, v.c(0)), em.eq(v.X, v.c(10)));
  const Boxes s = d.post(d.top(), Assume{x0_or_x10});
  REQUIRE(s.size() == 2);
  CHECK(to_str(s, em) == "{x: [0, 0]} | {x: [10, 10]}");
  // x = 5 is excluded by Boxes, not by Box.
  CHECK(d.post(s, Assume{em.eq(v.X, v.c(5))}).is_bottom());
  const Box sb = bd.post(bd.top(), Assume{x0_or_x10});
  CHECK_FALSE(bd.post(sb, Assume{em.eq(v.X, v.c(5))}).is_bottom());
  CHECK(d.hull(s) == sb);
  // Assignments apply per box: y := x + 1 gives two boxes again.
  const Boxes t = d.post(s, Assign{v.y, em.add(v.X, v.c(1))});
  CHECK(t.size() == 2);
  CHECK(d.post(t, Assume{em.eq(v.Y, v.c(6))}).is_bottom());
  CHECK(d.post(t, Assume{em.eq(v.Y, v.c(11))}).size() == 1);
  // A conjunction of disjunctions splits into their products.
  const Term y_split = em.or_(em.lt(v.Y, v.c(0)), em.gt(v.Y, v.c(100)));
  CHECK(d.post(d.top(), Assume{em.and_(x0_or_x10, y_split)}).size() == 4);
  CHECK(to_formula(s, em) == em.or_(em.eq(v.X, v.c(0)), em.eq(v.X, v.c(10))));
  CHECK(to_formula(d.bottom(), em) == em.false_());
}

TEST_CASE("Boxes caps the number of disjuncts") {
  const BoxesDomain d{BoxDomain{}, 4};
  Boxes acc;
  std::vector<Box> singles;
  for (std::int64_t i = 0; i < 10; ++i) {
    singles.push_back(box({{0, Interval::constant(3 * i)}, {1, iv(0, 0)}}));
    acc = d.join(acc, Boxes(singles.back()));
    CHECK(acc.size() <= 4);
  }
  for (const Box& b : singles) CHECK(d.leq(Boxes(b), acc));  // still an over-approximation
  // Far beyond the cap (more than twice): one box, the hull.
  const BoxesDomain d2{BoxDomain{}, 2};
  const Boxes all = d2.make(singles);
  CHECK(all.size() == 1);
  CHECK(all.boxes()[0] == box({{0, iv(0, 27)}, {1, iv(0, 0)}}));
  // The pairwise meet of 10 x 10 boxes stays capped too.
  const BoxesDomain d64;
  const Boxes big = d64.make(singles);
  CHECK(big.size() == 10);
  CHECK(d.meet(big, big).size() <= 4);
}

TEST_CASE("Boxes widening and the disjunctive WIDENWITH (VINTA section 4.2)") {
  const BoxesDomain d;
  const BoxDomain bd;
  SUBCASE("widening keeps disjuncts apart and terminates") {
    // Two loops' worth of boxes: x near 0 growing, and x = 100 fixed.
    const std::vector<Box> a0{box({{0, iv(0, 0)}}), box({{0, iv(100, 100)}})};
    Boxes a = d.make(a0);
    int steps = 0;
    for (; steps < 50; ++steps) {
      // each step adds x + 1 for the first disjunct only (x < 50)
      Boxes next = d.join(a, Boxes(box({{0, a.boxes()[0].get(0) + Interval::constant(1)}})));
      Boxes w = d.widen(a, next);
      if (d.leq(w, a)) break;
      a = w;
    }
    CHECK(steps <= 3);
    // [0, +oo) absorbed x = 100 in the end (it is below it), or kept it apart; both
    // cover the chain.
    CHECK(d.leq(d.make(a0), a));
    CHECK(a.size() <= 2);
  }
  SUBCASE("WIDENWITH_or returns the widened frontier") {
    const Boxes x(box({{0, iv(0, 0)}, {1, iv(7, 7)}}));
    const Boxes y(box({{0, iv(1, 1)}, {1, iv(7, 7)}}));
    // ((\/X) widen (\/X \/ y)) \ \/X = [0, +oo) \ [0, 0] = [1, +oo) (y stays 7).
    const Boxes z = d.widen_with(x, y);
    REQUIRE(z.size() == 1);
    CHECK(z.boxes()[0] == box({{0, {Bound(1), inf}}, {1, iv(7, 7)}}));
    // Def. 3 soundness: gamma(X) \/ gamma(y) => gamma(X) \/ gamma(z).
    CHECK(d.leq(y, d.join(x, z)));
    // Eq. (1) and a y already covered by X: empty frontier.
    CHECK(d.widen_with(std::span<const Boxes>{}, y) == y);
    CHECK(d.widen_with(x, x).is_bottom());
    // The join-based operator for comparison: one box from 0 up.
    CHECK(bd.widen_with(x.boxes()[0], y.boxes()[0]) == box({{0, {Bound(0), inf}}, {1, iv(7, 7)}}));
  }
  SUBCASE("Def. 3 termination: Z_i = Z_{i-1} + {Z_{i-1} widen_with y_i} converges") {
    std::vector<Boxes> zs{Boxes(box({{0, iv(0, 0)}}))};
    bool converged = false;
    for (std::int64_t i = 1; i <= 20 && !converged; ++i) {
      const Boxes yi(box({{0, Interval::constant(i)}}));
      Boxes u;
      for (const Boxes& z : zs) u = d.join(u, z);
      const Boxes zi = d.widen_with(zs, yi);
      CHECK(d.leq(yi, d.join(u, zi)));  // soundness at every step
      converged = d.leq(zi, u);
      zs.push_back(zi);
    }
    CHECK(converged);
    CHECK(zs.size() <= 4);
  }
  SUBCASE("difference falls back to the minuend beyond the cap") {
    const BoxesDomain small{BoxDomain{}, 2};
    const Boxes a(box({{0, iv(0, 10)}, {1, iv(0, 10)}, {2, iv(0, 10)}}));
    const Boxes hole(box({{0, iv(4, 5)}, {1, iv(4, 5)}, {2, iv(4, 5)}}));
    CHECK(small.difference(a, hole) == a);
    CHECK(d.difference(a, hole).size() == 6);
  }
}

}  // namespace box_test
