// Zones and octagons: lattice and hashing laws, brute-force
// soundness of every transfer against the concrete evaluator, exactness where the
// domain can express the constraint, closure, and the abstract interpreter on loops
// whose proofs need a relation.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace relational_test {

namespace {

struct Vars {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId z = em.declare("z", Type::Int);
  Term X = em.var(x), Y = em.var(y), Z = em.var(z);
  Term c(std::int64_t v) { return em.int_val(v); }
};

using Point = std::array<std::int64_t, 3>;

bool holds(Term f, const Point& p) {
  const auto v = evaluate(f, [&](VarId id) -> OptValue { return p[id]; });
  REQUIRE(v.has_value());
  return *v != 0;
}

// Every point of [-R, R]^3.
constexpr std::int64_t R = 3;
std::vector<Point> grid() {
  std::vector<Point> g;
  for (std::int64_t a = -R; a <= R; ++a)
    for (std::int64_t b = -R; b <= R; ++b)
      for (std::int64_t c = -R; c <= R; ++c) g.push_back({a, b, c});
  return g;
}

// Conditions the generator and the soundness checks use: octagonal, zone-only, linear
// with larger coefficients and three variables, disequalities, disjunctions, non-linear.
std::vector<Term> conditions(Vars& v) {
  auto& em = v.em;
  return {
      em.le(v.X, v.c(2)),
      em.ge(v.Y, v.c(-1)),
      em.le(em.sub(v.X, v.Y), v.c(1)),
      em.le(em.add(v.X, v.Y), v.c(2)),
      em.ge(em.add(v.X, v.Z), v.c(-2)),
      em.eq(v.Z, em.add(v.Y, v.c(1))),
      em.lt(em.add(em.mul(v.c(2), v.X), v.Y), v.c(3)),
      em.le(em.add(em.add(v.X, v.Y), v.Z), v.c(1)),
      em.neq(v.X, v.c(0)),
      em.neq(v.X, v.Y),
      em.or_(em.lt(v.X, v.c(-1)), em.gt(v.Y, v.c(1))),
      em.not_(em.and_(em.ge(v.X, v.c(0)), em.le(v.Z, v.c(0)))),
      em.le(em.mul(v.X, v.Y), v.c(2)),
      em.eq(em.mod(v.X, v.c(2)), v.c(1)),
      em.ge(v.X, v.c(5)),  // empty on some elements
  };
}

std::vector<Operation> operations(Vars& v) {
  auto& em = v.em;
  std::vector<Operation> ops;
  for (Term c : conditions(v)) ops.push_back(Assume{c});
  ops.push_back(Assign{v.x, em.add(v.X, v.c(3))});
  ops.push_back(Assign{v.x, em.sub(v.c(1), v.X)});
  ops.push_back(Assign{v.x, em.add(v.Y, v.c(2))});
  ops.push_back(Assign{v.x, em.sub(v.c(2), v.Y)});
  ops.push_back(Assign{v.x, em.add(v.Y, v.Z)});
  ops.push_back(Assign{v.x, em.add(v.X, v.Y)});
  ops.push_back(Assign{v.x, em.sub(em.mul(v.c(2), v.Y), v.Z)});
  ops.push_back(Assign{v.x, em.mul(v.Y, v.Z)});
  ops.push_back(Assign{v.x, em.mod(em.add(v.Y, v.c(4)), v.c(8))});  // wrap-free wrap-around
  ops.push_back(Assign{v.x, v.c(7)});
  ops.push_back(Havoc{v.y});
  ops.push_back(Skip{});
  return ops;
}

// Elements reached from top by a few random assumptions (seeded: reproducible).
template <class D>
std::vector<typename D::element> samples(const D& d, Vars& v, std::size_t n) {
  std::mt19937 rng(42);
  const auto conds = conditions(v);
  const auto ops = operations(v);
  std::vector<typename D::element> out{d.bottom(), d.top()};
  while (out.size() < n) {
    typename D::element e = d.top();
    const std::size_t steps = 1 + rng() % 4;
    for (std::size_t i = 0; i < steps; ++i) {
      e = d.post(e, Operation{Assume{conds[rng() % conds.size()]}});
      if (rng() % 3 == 0) e = d.post(e, ops[rng() % ops.size()]);
    }
    out.push_back(e);
  }
  return out;
}

// For every sample e and operation op: each concrete successor of a point of gamma(e)
// (within the grid) lies in gamma(post(e, op)).
template <class D>
void check_soundness(const D& d) {
  Vars v;
  const auto pts = grid();
  const auto ops = operations(v);
  std::size_t checked = 0;
  for (const auto& e : samples(d, v, 40)) {
    const Term fe = to_formula(e, v.em);
    for (const Operation& op : ops) {
      const Term fp = to_formula(d.post(e, op), v.em);
      for (const Point& p : pts) {
        if (!holds(fe, p)) continue;
        std::vector<Point> succ;
        std::visit(overloaded{
                       [&](const Skip&) { succ.push_back(p); },
                       [&](const Assume& a) {
                         if (holds(a.cond, p)) succ.push_back(p);
                       },
                       [&](const Assign& a) {
                         Point q = p;
                         q[a.var] = *evaluate(a.value, [&](VarId id) -> OptValue { return p[id]; });
                         succ.push_back(q);
                       },
                       [&](const Havoc& h) {
                         for (std::int64_t val = -R - 2; val <= R + 2; ++val) {
                           Point q = p;
                           q[h.var] = val;
                           succ.push_back(q);
                         }
                       },
                   },
                   op);
        for (const Point& q : succ) {
          ++checked;
          if (!holds(fp, q)) {
            FAIL_CHECK("unsound post: " << to_string(op, v.em) << " from " << to_string(fe, v.em)
                                        << " loses (" << q[0] << ", " << q[1] << ", " << q[2]
                                        << "); post is " << to_string(fp, v.em));
          }
        }
      }
    }
  }
  CHECK(checked > 10000);
}

Cfa model(const std::string& text) { return parse_cfa(text, "model.cfa"); }

template <class D>
D with_thresholds(const Cfa& cfa) {
  Thresholds th;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (auto e : cfa.out_edges(l)) add_constants(th, cfa.operation(e));
  return D(std::move(th));
}

template <class D>
bool proves(const Cfa& cfa) {
  const D d = with_thresholds<D>(cfa);
  AbstractInterpreter<D> ai(cfa, d);
  const auto r = ai.run();
  REQUIRE(r.complete);
  return d.is_bottom(r.values[*cfa.error_location()]);
}

// k counts with i up to an unknown n: k == i at the exit needs k - i = 0.
const char* const k_equals_i = R"(
main process p {
  var i : int
  var k : int
  var n : int
  init loc L0
  loc L1
  loc L2
  loc L3
  final loc END
  error loc ERR
  L0 -> L1 { i := 0 }
  L1 -> L2 { k := 0 }
  L2 -> L3 { assume i < n }
  L3 -> L2 { i := i + 1  k := k + 1 }
  L2 -> END { assume i >= n and k = i }
  L2 -> ERR { assume i >= n and not (k = i) }
}
)";

// x counts down from 10 while y counts up: y == 10 at the exit needs x + y = 10.
std::string sum_model(int expected) {
  return R"(
main process p {
  var x : int
  var y : int
  init loc L0
  loc L1
  loc L2
  loc L3
  final loc END
  error loc ERR
  L0 -> L1 { x := 10 }
  L1 -> L2 { y := 0 }
  L2 -> L3 { assume x > 0 }
  L3 -> L2 { x := x - 1  y := y + 1 }
  L2 -> END { assume x <= 0 and y = )" +
         std::to_string(expected) + R"( }
  L2 -> ERR { assume x <= 0 and not (y = )" +
         std::to_string(expected) + R"() }
}
)";
}

}  // namespace

TEST_CASE("zones and octagons satisfy the lattice and hashing laws") {
  Vars v;
  const OctagonDomain oct;
  const auto os = samples(oct, v, 24);
  testing::check_lattice_laws(oct, os);
  testing::check_hashing_laws(oct, os);
  const ZoneDomain zone;
  const auto zs = samples(zone, v, 24);
  testing::check_lattice_laws(zone, zs);
  testing::check_hashing_laws(zone, zs);
}

TEST_CASE("octagon transfer is sound on every point of a grid (brute force)") {
  check_soundness(OctagonDomain{});
}

TEST_CASE("zone transfer is sound on every point of a grid (brute force)") {
  check_soundness(ZoneDomain{});
}

TEST_CASE("octagonal constraints are kept exactly, and closure derives the implied ones") {
  Vars v;
  auto& em = v.em;
  const OctagonDomain d;
  auto e = d.assume(d.top(), em.le(em.sub(v.X, v.Y), v.c(1)));
  e = d.assume(e, em.le(em.sub(v.Y, v.Z), v.c(2)));
  e = d.assume(e, em.le(em.add(v.X, v.Z), v.c(4)));
  // x - z <= 3 by transitivity; 2x <= 7, so x <= 3 over the integers (tightening).
  CHECK(d.upper(e, 1, v.x, -1, v.z) == 3);
  CHECK(d.interval(e, v.x).hi() == Bound(3));
  // Zones keep the differences but not the sum.
  const ZoneDomain zd;
  auto ze = zd.assume(zd.top(), em.le(em.sub(v.X, v.Y), v.c(1)));
  ze = zd.assume(ze, em.le(em.sub(v.Y, v.Z), v.c(2)));
  CHECK(zd.upper(ze, 1, v.x, -1, v.z) == 3);
  ze = zd.assume(ze, em.le(em.add(v.X, v.Z), v.c(4)));
  CHECK(!zd.upper(ze, 1, v.x, 1, v.z).has_value());
  // Unsatisfiable: x - y <= -1 and y - x <= 0.
  CHECK(d.is_bottom(d.assume(d.assume(d.top(), em.lt(v.X, v.Y)), em.le(v.Y, v.X))));
  CHECK(zd.is_bottom(zd.assume(zd.assume(zd.top(), em.lt(v.X, v.Y)), em.le(v.Y, v.X))));
  // Integer tightening: 2x <= 1 and 2x >= 1 has no integer solution (x + x form).
  CHECK(d.is_bottom(d.assume(d.assume(d.top(), em.le(em.add(v.X, v.X), v.c(1))),
                             em.ge(em.add(v.X, v.X), v.c(1)))));
}

TEST_CASE("assignments keep relations: shift, negation, copy, sums") {
  Vars v;
  auto& em = v.em;
  const OctagonDomain d;
  auto e = d.assume(d.top(), em.eq(v.X, v.Y));
  e = d.post(e, Assign{v.x, em.add(v.X, v.c(2))});  // x = y + 2
  CHECK(d.upper(e, 1, v.x, -1, v.y) == 2);
  CHECK(d.upper(e, -1, v.x, 1, v.y) == -2);
  e = d.post(e, Assign{v.x, em.sub(v.c(5), v.X)});  // x = 3 - y
  CHECK(d.upper(e, 1, v.x, 1, v.y) == 3);
  CHECK(d.upper(e, -1, v.x, -1, v.y) == -3);
  e = d.post(e, Assign{v.z, v.X});  // z = x
  CHECK(d.upper(e, 1, v.z, -1, v.x) == 0);
  CHECK(d.upper(e, 1, v.z, 1, v.y) == 3);  // by closure
  // x := y + z with z in [0, 4]: x - y in [0, 4]
  auto f = d.assume(d.top(), em.and_(em.ge(v.Z, v.c(0)), em.le(v.Z, v.c(4))));
  f = d.post(f, Assign{v.x, em.add(v.Y, v.Z)});
  CHECK(d.upper(f, 1, v.x, -1, v.y) == 4);
  CHECK(d.upper(f, -1, v.x, 1, v.y) == 0);
  // The C front end's wrap-around (y + 1) mod 2^32 with 0 <= y < 100 is y + 1 exactly.
  auto g = d.assume(d.top(), em.and_(em.ge(v.Y, v.c(0)), em.lt(v.Y, v.c(100))));
  g = d.post(g, Assign{v.x, em.mod(em.add(v.Y, v.c(1)), v.c(4294967296))});
  CHECK(d.upper(g, 1, v.x, -1, v.y) == 1);
  CHECK(d.upper(g, -1, v.x, 1, v.y) == -1);
  // Havoc forgets only the variable.
  g = d.post(g, Havoc{v.x});
  CHECK(d.interval(g, v.x).is_top());
  CHECK(d.interval(g, v.y) == Interval(0, 99));
}

TEST_CASE("to_formula lists the bounds and the relations the bounds do not imply") {
  Vars v;
  auto& em = v.em;
  const OctagonDomain d;
  CHECK(to_formula(d.bottom(), em) == em.false_());
  CHECK(to_formula(d.top(), em) == em.true_());
  auto e = d.assume(d.top(), em.and_(em.ge(v.X, v.c(0)), em.le(em.sub(v.Y, v.X), v.c(0))));
  std::ostringstream os;
  print(os, e, em);
  CHECK(os.str() == "{0 <= x and -x + y <= 0}");
}

TEST_CASE("the abstract interpreter with zones proves k == i; intervals cannot") {
  const Cfa cfa = model(k_equals_i);
  CHECK(proves<ZoneDomain>(cfa));
  CHECK(proves<OctagonDomain>(cfa));
  CHECK_FALSE(proves<BoxDomain>(cfa));
}

TEST_CASE("octagons prove x + y == 10 after a count-down; zones cannot; the wrong claim stays") {
  const Cfa safe = model(sum_model(10));
  CHECK(proves<OctagonDomain>(safe));
  CHECK_FALSE(proves<ZoneDomain>(safe));
  const Cfa unsafe = model(sum_model(9));
  CHECK_FALSE(proves<OctagonDomain>(unsafe));
}

TEST_CASE("widening terminates on nested loops with unbounded counters") {
  const Cfa cfa = model(R"(
main process p {
  var i : int
  var j : int
  var k : int
  init loc L0
  loc L1
  loc L2
  loc L3
  loc L4
  final loc END
  error loc ERR
  L0 -> L1 { i := 0  k := 0 }
  L1 -> L2 { j := 0 }
  L2 -> L3 { assume j < i }
  L3 -> L2 { j := j + 1  k := k + 1 }
  L2 -> L4 { assume j >= i }
  L4 -> L1 { i := i + 1 }
  L1 -> ERR { assume k < 0 }
  L1 -> END { assume k >= 0 }
}
)");
  AbstractInterpreter<OctagonDomain> ai(cfa, OctagonDomain{});
  const auto r = ai.run();
  CHECK(r.complete);
  CHECK(r.widenings > 0);
  CHECK(OctagonDomain{}.is_bottom(r.values[*cfa.error_location()]));
}

}  // namespace relational_test
