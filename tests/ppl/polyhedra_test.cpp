// The convex polyhedra domain on PPL: the lattice and hashing laws on
// relational samples; every transfer checked against the concrete semantics by brute
// force on a grid; abstract interpretation proving loops whose invariants are relations
// (k = i, k = 2i) that Box cannot express, not proving an unsafe variant, terminating on
// nested loops; and, with cvc5, the invariants checked by the solver and VINTA over it.

#include <doctest/doctest.h>

#include <array>
#include <cfenv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/relational/polyhedra.hpp"
#include "precis/domains/relational/ppl_limits.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/cfa_reader.hpp"
#ifdef PRECIS_HAVE_CVC5
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/invariant_check.hpp"
#endif

using namespace precis;

namespace polyhedra_test {

namespace {

namespace ppl = Parma_Polyhedra_Library;

// Whether the integer point `value` (indexed by VarId) lies in s, asked of PPL directly
// (a generator test, independent of the domain's own code), and of the intervals.
template <class V>
bool contains(const Poly& s, const V& value) {
  if (s.is_bottom()) return false;
  for (const auto& [x, i] : s.intervals().bounds())
    if (!i.contains(value(x))) return false;
  ppl::Linear_Expression e;
  for (std::size_t i = 0; i < s.variables().size(); ++i)
    e += ppl::Coefficient(static_cast<long>(value(s.variables()[i]))) * ppl::Variable(i);
  return s.polyhedron().relation_with(ppl::point(e)).implies(ppl::Poly_Gen_Relation::subsumes());
}

// x, y, z integers and p a Boolean.
struct Vars {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId z = em.declare("z", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  Term X = em.var(x), Y = em.var(y), Z = em.var(z), P = em.var(p);
  Term c(std::int64_t v) { return em.int_val(v); }
  Term all(std::initializer_list<Term> ts) { return em.conj(std::vector<Term>(ts)); }
};

using Point = std::array<std::int64_t, 4>;  // x, y, z, p by VarId

// Every point of [-3, 3]^3 x {0, 1}.
std::vector<Point> grid() {
  std::vector<Point> g;
  for (std::int64_t x = -3; x <= 3; ++x)
    for (std::int64_t y = -3; y <= 3; ++y)
      for (std::int64_t z = -3; z <= 3; ++z)
        for (std::int64_t p = 0; p <= 1; ++p) g.push_back({x, y, z, p});
  return g;
}

bool in(const Poly& s, const Point& pt) {
  return contains(s, [&](VarId v) { return pt.at(v); });
}

OptValue eval_at(Term t, const Point& pt) {
  return evaluate(t, [&](VarId v) -> OptValue { return pt.at(v); });
}

// Pre-states: relational, with different variable sets, a Boolean, a point, a hull.
std::vector<Poly> samples(Vars& v, const PolyhedraDomain& d) {
  auto& em = v.em;
  const Poly top = d.top();
  std::vector<Poly> s{
      d.bottom(),
      top,
      d.assume(top,
               v.all({em.le(v.c(-2), v.X), em.le(v.X, v.c(2)), em.eq(v.Y, em.add(v.X, v.c(1)))})),
      d.assume(top, v.all({em.le(em.add(v.X, v.Y), v.c(2)), em.ge(v.X, v.c(-1)),
                           em.ge(v.Y, v.c(-2)), em.eq(v.Z, v.c(1))})),
      d.assume(top, v.all({v.P, em.ge(v.X, v.c(0)), em.le(v.X, v.Z)})),
      d.assume(top, v.all({em.not_(v.P), em.le(em.mul(v.c(2), v.X), em.add(v.Y, v.c(1))),
                           em.le(v.Y, v.c(3))})),
      d.assume(top, em.or_(em.eq(em.sub(v.X, v.Y), v.c(1)), em.eq(em.add(v.X, v.Y), v.c(0)))),
      d.assume(top, v.all({em.eq(v.X, v.c(0)), em.eq(v.Y, v.c(0))})),
      d.assume(top, v.all({em.ge(v.X, v.c(0)), em.le(v.X, v.c(3))})),
      d.assume(top, v.all({em.ge(v.Z, v.c(2))})),
  };
  return s;
}

std::string to_str(const Poly& s, const ExprManager& em) {
  std::ostringstream os;
  print(os, s, em);
  return os.str();
}

}  // namespace

static_assert(InterpretableDomain<PolyhedraDomain>);

TEST_CASE("polyhedra: lattice and hashing laws on relational samples") {
  Vars v;
  for (const PolyhedraDomain& d :
       {PolyhedraDomain{}, PolyhedraDomain{Thresholds{-1, 0, 1, 2, 3, 10}},
        PolyhedraDomain{Thresholds{}, PolyhedraWidening::BHRZ03}}) {
    const std::vector<Poly> s = samples(v, d);
    testing::check_lattice_laws(d, s);
    testing::check_hashing_laws(d, s);
    // join, meet and widening against the points of the grid: the hull contains both,
    // the meet is exactly the intersection, the widening contains both.
    for (const Poly& a : s)
      for (const Poly& b : s) {
        const Poly j = d.join(a, b);
        const Poly m = d.meet(a, b);
        const Poly w = d.widen(a, d.join(a, b));
        const Poly n = d.narrow(w, a);
        for (const Point& pt : grid()) {
          const bool ia = in(a, pt);
          const bool ib = in(b, pt);
          if (ia || ib) CHECK(in(j, pt));
          if (ia || ib) CHECK(in(w, pt));
          CHECK(in(m, pt) == (ia && ib));
          if (ia) CHECK(in(n, pt));  // narrowing keeps what a (below w) has
          if (in(n, pt)) CHECK(in(w, pt));
        }
      }
  }
}

// With the default size limit, and with limits so small that every step of the size
// guard happens (intervals, two-variable constraints, the bounding box): still sound.
TEST_CASE("polyhedra: every transfer is sound on a grid (brute force)") {
  Vars v;
  auto& em = v.em;
  for (const std::size_t limit :
       {PolyhedraDomain::default_size_limit, std::size_t{4}, std::size_t{9}}) {
    CAPTURE(limit);
    PolyhedraDomain d;
    d.set_size_limit(limit);
    const Term X = v.X, Y = v.Y, Z = v.Z, P = v.P;
    const std::vector<Term> conditions{
        em.lt(X, Y),
        em.ge(em.add(X, em.mul(v.c(2), Y)), v.c(3)),
        em.eq(X, em.add(Y, v.c(1))),
        em.neq(X, Y),
        em.neq(X, v.c(2)),
        em.not_(em.le(X, Y)),
        em.or_(em.lt(X, Y), em.gt(Z, v.c(1))),
        em.eq(em.lt(X, Y), P),
        P,
        em.not_(P),
        em.gt(em.mul(X, Y), v.c(2)),
        em.eq(em.mod(X, v.c(2)), v.c(1)),
        em.gt(em.ite(P, X, Y), v.c(0)),
        em.eq(em.div(X, v.c(2)), Y),
        em.eq(em.mul(v.c(2), X), em.add(Y, v.c(1))),
        em.eq(em.mul(v.c(2), X), v.c(1)),
        em.imply(P, em.gt(X, v.c(0))),
        em.xor_(P, em.lt(Y, v.c(0))),
        em.iff(P, em.ge(em.add(X, Z), v.c(1))),
        em.le(em.mod(em.add(X, v.c(3)), v.c(8)), v.c(2)),
    };
    std::vector<Operation> ops{Skip{}, Havoc{v.x}, Havoc{v.p}};
    for (Term c : conditions) ops.push_back(Assume{c});
    for (Term value :
         {em.add(Y, v.c(1)), em.sub(em.add(X, Y), v.c(3)), em.mul(v.c(2), X), em.mul(X, Y),
          em.mod(X, v.c(4)), em.mod(em.add(X, v.c(3)), v.c(8)), em.mod(Y, v.c(2)), em.ite(P, Y, Z),
          em.neg(X), v.c(7), em.add(Y, em.mul(Z, Z)), em.div(X, v.c(2))})
      ops.push_back(Assign{v.x, value});
    ops.push_back(Assign{v.z, em.div(X, v.c(2))});
    ops.push_back(Assign{v.p, em.lt(X, Y)});
    ops.push_back(Assign{v.p, em.true_()});
    ops.push_back(Assign{v.p, em.not_(P)});

    const std::vector<Point> points = grid();
    std::size_t checked = 0;
    for (const Poly& s : samples(v, d)) {
      // to_formula is gamma on the grid.
      const Term f = to_formula(s, em);
      for (const Point& pt : points) CHECK((eval_at(f, pt) == std::int64_t{1}) == in(s, pt));
      for (const Operation& op : ops) {
        const Poly post = d.post(s, op);
        for (const Point& pt : points) {
          if (!in(s, pt)) continue;
          std::vector<Point> succ;
          if (const auto* a = std::get_if<Assume>(&op)) {
            if (eval_at(a->cond, pt) == std::int64_t{1}) succ.push_back(pt);
          } else if (const auto* a = std::get_if<Assign>(&op)) {
            const OptValue val = eval_at(a->value, pt);
            if (!val) continue;  // division by zero is unspecified
            Point q = pt;
            q[a->var] = *val;
            succ.push_back(q);
          } else if (const auto* h = std::get_if<Havoc>(&op)) {
            for (std::int64_t nv = -5; nv <= 5; ++nv) {
              if (h->var == v.p && (nv < 0 || nv > 1)) continue;
              Point q = pt;
              q[h->var] = nv;
              succ.push_back(q);
            }
          } else {
            succ.push_back(pt);
          }
          for (const Point& q : succ) {
            ++checked;
            if (!in(post, q)) {
              FAIL_CHECK("unsound post " << to_string(op, em) << " from " << to_str(s, em)
                                         << ": lost (" << q[0] << ", " << q[1] << ", " << q[2]
                                         << ", " << q[3] << "), post " << to_str(post, em));
            }
          }
        }
      }
    }
    CHECK(checked > 10000);
    if (limit < 10) {
      const PolyhedraStatistics& st = d.statistics();
      CHECK(st.two_variable > 0);
      CHECK(st.largest > limit);
      if (limit == 4) CHECK(st.intervals > 0);
      // join and widening of the (weakened) samples still contain both operands.
      const std::vector<Poly> s = samples(v, d);
      for (const Poly& a : s)
        for (const Poly& b : s) {
          const Poly j = d.join(a, b);
          const Poly w = d.widen(a, j);
          for (const Point& pt : points)
            if (in(a, pt) || in(b, pt)) CHECK((in(j, pt) && in(w, pt)));
        }
    }
  }
}

TEST_CASE("polyhedra: transfers are exact where the theory says so") {
  Vars v;
  auto& em = v.em;
  const PolyhedraDomain d;
  const Poly top = d.top();
  auto A = [&](const Poly& s, Term c) { return d.assume(s, c); };
  auto equal = [&](const Poly& a, const Poly& b) { return d.leq(a, b) && d.leq(b, a); };

  // x := x + 1 after x = y is x = y + 1, exactly (an affine image).
  const Poly xy = A(top, em.eq(v.X, v.Y));
  const Poly inc = d.post(xy, Assign{v.x, em.add(v.X, v.c(1))});
  CHECK(equal(inc, A(top, em.eq(v.X, em.add(v.Y, v.c(1))))));
  // Integer tightening: 2x = 1 has no integer solution; x < y is x <= y - 1.
  CHECK(A(top, em.eq(em.mul(v.c(2), v.X), v.c(1))).is_bottom());
  CHECK(A(A(top, em.lt(v.X, v.Y)), em.ge(v.X, v.Y)).is_bottom());
  CHECK(A(A(top, em.lt(v.X, v.Y)), em.eq(v.X, em.sub(v.Y, v.c(1)))) ==
        A(top, em.eq(v.X, em.sub(v.Y, v.c(1)))));
  CHECK(A(A(top, em.le(em.mul(v.c(3), v.X), v.c(7))), em.ge(v.X, v.c(3))).is_bottom());
  // != at a bound cuts it off (hull of the two sides).
  const Poly r05 = A(top, v.all({em.ge(v.X, v.c(0)), em.le(v.X, v.c(5))}));
  CHECK(d.bounds(A(r05, em.neq(v.X, v.c(5))), v.x) == Interval(0, 4));
  CHECK(d.bounds(A(r05, em.neq(v.X, v.c(3))), v.x) == Interval(0, 5));
  // Wrap-around: (x + 1) mod 256 is x + 1 while x + 1 is in [0, 255], relationally.
  const Poly small = A(r05, em.eq(v.Y, v.X));
  const Poly wrapped = d.post(small, Assign{v.x, em.mod(em.add(v.X, v.c(1)), v.c(256))});
  CHECK(equal(wrapped, A(A(top, v.all({em.ge(v.Y, v.c(0)), em.le(v.Y, v.c(5))})),
                         em.eq(v.X, em.add(v.Y, v.c(1))))));
  // In a conjunction the linear parts come first, so the wrap-around reads x in [0, 5].
  CHECK(equal(
      A(top, v.all({em.eq(v.Y, em.mod(v.X, v.c(8))), em.ge(v.X, v.c(0)), em.le(v.X, v.c(5))})),
      A(r05, em.eq(v.Y, v.X))));
  const Poly big = A(top, v.all({em.ge(v.X, v.c(250)), em.le(v.X, v.c(300))}));
  CHECK(d.bounds(d.post(big, Assign{v.x, em.mod(em.add(v.X, v.c(1)), v.c(256))}), v.x) ==
        Interval(0, 255));
  // A non-linear value keeps its relation to the linear part: x := y + z * z.
  const Poly zr = A(top, v.all({em.ge(v.Z, v.c(-2)), em.le(v.Z, v.c(3))}));
  const Poly nl = d.post(zr, Assign{v.x, em.add(v.Y, em.mul(v.Z, v.Z))});
  CHECK(d.bounds(nl, v.x).is_top());
  CHECK(d.leq(nl,
              A(top, v.all({em.ge(em.sub(v.X, v.Y), v.c(-6)), em.le(em.sub(v.X, v.Y), v.c(9))}))));
  // Booleans: p := x < y relates p to x - y; assume p then gives x < y back.
  const Poly bp =
      d.post(A(top, v.all({em.ge(v.X, v.c(0)), em.le(v.X, v.c(4)), em.eq(v.Y, v.c(2))})),
             Assign{v.p, em.lt(v.X, v.Y)});
  CHECK(d.bounds(A(bp, v.P), v.x) == Interval(0, 1));
  CHECK(d.bounds(A(bp, em.not_(v.P)), v.x) == Interval(2, 4));
  // ite values as the hull of the branches.
  const Poly it = d.post(A(top, v.all({em.eq(v.Y, v.c(1)), em.eq(v.Z, v.c(5))})),
                         Assign{v.x, em.ite(v.P, v.Y, v.Z)});
  CHECK(d.bounds(it, v.x) == Interval(1, 5));
  CHECK(d.bounds(A(it, v.P), v.x) == Interval(1, 1));
  // havoc projects: the relation through x is gone, the implied one stays.
  const Poly chain = A(top, v.all({em.le(v.X, v.Y), em.le(v.Y, v.Z)}));
  const Poly hy = d.post(chain, Havoc{v.y});
  CHECK(hy.variables() == std::vector<VarId>{v.x, v.z});
  CHECK(equal(hy, A(top, em.le(v.X, v.Z))));
  // eval bounds linear terms exactly by linear programming.
  CHECK(d.eval(chain, em.sub(v.X, v.Z)) == Interval(Bound::neg_inf(), Bound(0)));
  CHECK(d.eval(r05, em.lt(v.X, v.c(9))) == Interval(1, 1));
}

TEST_CASE("polyhedra: elements over different variables, hashing, printing, gamma") {
  Vars v;
  auto& em = v.em;
  const PolyhedraDomain d;
  const Poly top = d.top();
  // The same set built two ways: constraints in another order, and a variable that was
  // constrained and then forgotten. Equal, with equal hashes.
  const Poly a = d.assume(top, v.all({em.le(v.X, v.c(3)), em.ge(v.X, v.c(0)), em.le(v.Y, v.X)}));
  const Poly b =
      d.post(d.assume(top, v.all({em.eq(v.Z, v.c(1)), em.ge(v.Y, v.c(-100)), em.le(v.Y, v.X),
                                  em.ge(v.X, v.c(0)), em.le(em.mul(v.c(2), v.X), v.c(6))})),
             Havoc{v.z});
  const Poly b2 = d.join(b, d.assume(top, v.all({em.eq(v.X, v.c(0)), em.eq(v.Y, v.c(-100))})));
  CHECK(d.leq(b2, a));
  CHECK_FALSE(d.leq(a, b2));
  const Poly a2 = d.meet(a, d.assume(top, em.ge(v.Y, v.c(-100))));
  CHECK(a2 == b2);
  CHECK(d.hash(a2) == d.hash(b2));
  // A missing variable is unconstrained.
  CHECK(d.leq(d.assume(top, em.eq(v.X, v.c(1))), d.assume(top, em.ge(v.X, v.c(0)))));
  CHECK_FALSE(d.leq(d.assume(top, em.eq(v.X, v.c(1))), d.assume(top, em.ge(v.Y, v.c(0)))));
  // The join drops the dimensions it frees.
  const Poly jx = d.join(d.assume(top, em.eq(v.Y, v.c(0))), d.assume(top, em.eq(v.X, v.c(0))));
  CHECK(jx.is_top());
  CHECK(jx.variables().empty());

  CHECK(to_str(d.bottom(), em) == "bottom");
  CHECK(to_str(top, em) == "top");
  CHECK(to_str(d.assume(top, em.eq(v.X, em.add(v.Y, v.c(2)))), em) == "{x - y = 2}");
  CHECK(to_formula(d.bottom(), em) == em.false_());
  CHECK(to_formula(top, em) == em.true_());
  CHECK(to_formula(d.assume(top, em.le(v.X, v.c(3))), em) == em.le(v.X, v.c(3)));
  CHECK(to_formula(d.assume(top, v.P), em) == v.P);
  CHECK(to_formula(d.assume(top, em.not_(v.P)), em) == em.not_(v.P));
}

TEST_CASE("polyhedra: widening with thresholds, H79 and BHRZ03, terminate") {
  Vars v;
  auto& em = v.em;
  // x := 0; loop { x := x + 1; y := y + 2 } from y = 0: the head's chain.
  for (auto w : {PolyhedraWidening::H79, PolyhedraWidening::BHRZ03}) {
    for (bool with_thresholds : {false, true}) {
      const PolyhedraDomain d(with_thresholds ? Thresholds{99, 100, 101} : Thresholds{}, w);
      Poly head = d.assume(d.top(), v.all({em.eq(v.X, v.c(0)), em.eq(v.Y, v.c(0))}));
      int steps = 0;
      for (; steps < 50; ++steps) {
        Poly body = d.assume(head, em.lt(v.X, v.c(100)));
        body = d.post(body, Assign{v.x, em.add(v.X, v.c(1))});
        body = d.post(body, Assign{v.y, em.add(v.Y, v.c(2))});
        if (d.leq(body, head)) break;
        head = d.widen(head, d.join(head, body));
      }
      CAPTURE(with_thresholds);
      // Each threshold of x (and of y = 2x) costs at most one more step.
      CHECK(steps < 10);
      // The relation y = 2x survives the widening; the bound on x only with thresholds.
      CHECK(d.leq(head, d.assume(d.top(), em.eq(v.Y, em.mul(v.c(2), v.X)))));
      CHECK(d.bounds(head, v.x).lo() == Bound(0));
      CHECK(d.bounds(head, v.x).hi() == (with_thresholds ? Bound(100) : Bound::pos_inf()));
    }
  }
}

// ---- abstract interpretation over PolyhedraDomain --------------------------------------

namespace {

const char* const eq_loop = R"(
main process eq_loop {
    var i : int
    var k : int
    var n : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { i := 0  k := 0 }
    L1 -> L1 { assume i < n  i := i + 1  k := k + 1 }
    L1 -> L2 { assume i >= n }
    L2 -> ERR { assume k /= i }
    L2 -> END { assume k = i }
}
)";

const char* const double_loop = R"(
main process double_loop {
    var i : int
    var k : int
    var n : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { i := 0  k := 0 }
    L1 -> L1 { assume i < n  i := i + 1  k := k + 2 }
    L1 -> L2 { assume i >= n }
    L2 -> ERR { assume k /= 2 * i }
    L2 -> END { assume k = 2 * i }
}
)";

// UNSAFE: k = 2i exceeds i as soon as the loop runs once (n >= 1).
const char* const double_loop_unsafe = R"(
main process double_loop_unsafe {
    var i : int
    var k : int
    var n : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { i := 0  k := 0 }
    L1 -> L1 { assume i < n  i := i + 1  k := k + 2 }
    L1 -> L2 { assume i >= n }
    L2 -> ERR { assume k > i }
    L2 -> END { assume k <= i }
}
)";

// Nested loops: c = 3i at the outer head, c = 3i + j at the inner one; c = 9 at the exit.
const char* const nested = R"(
main process nested {
    var i : int
    var j : int
    var c : int
    init loc L0
    loc L1
    loc L2
    loc L4
    loc L5
    final loc END
    error loc ERR
    L0 -> L1 { i := 0  c := 0 }
    L1 -> L2 { assume i < 3  j := 0 }
    L2 -> L2 { assume j < 3  c := c + 1  j := j + 1 }
    L2 -> L4 { assume j >= 3  i := i + 1 }
    L4 -> L1
    L1 -> L5 { assume i >= 3 }
    L5 -> ERR { assume c /= 9 }
    L5 -> END { assume c = 9 }
}
)";

template <class D>
AbstractInterpretation<typename D::element> interpret(const Cfa& cfa, D d) {
  AbstractInterpreterOptions o;
  o.max_updates = 10000;  // a guard: widening must stop the iteration long before
  AbstractInterpreter<D> ai(cfa, std::move(d), o);
  auto r = ai.run();
  REQUIRE(r.complete);
  return r;
}

// Runs the CFA concretely from every start in {-1, 0, 2, 5}^vars (havoc: -2..5), up to
// `depth` steps, and checks that every state reached lies in its location's element.
void check_reachable_states_covered(const Cfa& cfa, const std::vector<Poly>& values,
                                    std::size_t depth = 40) {
  const std::size_t nv = cfa.variables().size();
  const std::vector<std::int64_t> starts{-1, 0, 2, 5};
  std::vector<std::int64_t> val(nv, 0);
  std::size_t states = 0;
  std::function<void(Loc, std::size_t)> walk = [&](Loc l, std::size_t k) {
    ++states;
    const bool covered = contains(values[l], [&](VarId v) { return val[v]; });
    if (!covered) FAIL_CHECK("reachable state not covered at " << cfa.name(l));
    if (k == depth) return;
    for (auto e : cfa.out_edges(l)) {
      const Operation& op = cfa.operation(e);
      const auto valuation = [&](VarId v) -> OptValue { return val[v]; };
      if (const auto* a = std::get_if<Assume>(&op)) {
        if (evaluate(a->cond, valuation) == std::int64_t{1}) walk(cfa.target(e), k + 1);
      } else if (const auto* a = std::get_if<Assign>(&op)) {
        const OptValue x = evaluate(a->value, valuation);
        if (!x) continue;
        const std::int64_t old = val[a->var];
        val[a->var] = *x;
        walk(cfa.target(e), k + 1);
        val[a->var] = old;
      } else if (const auto* h = std::get_if<Havoc>(&op)) {
        const std::int64_t old = val[h->var];
        for (std::int64_t x = -2; x <= 5; ++x) {
          val[h->var] = x;
          walk(cfa.target(e), k + 1);
        }
        val[h->var] = old;
      } else {
        walk(cfa.target(e), k + 1);
      }
    }
  };
  std::function<void(std::size_t)> start = [&](std::size_t v) {
    if (v == nv) {
      walk(cfa.initial_location(), 0);
      return;
    }
    for (std::int64_t s : starts) {
      val[v] = s;
      start(v + 1);
    }
  };
  start(0);
  CHECK(states > 100);
}

#ifdef PRECIS_HAVE_CVC5
// The solver's check of the invariant (initiation, consecution, exclusion of the error).
void check_certificate(const Cfa& cfa, const std::vector<Poly>& values) {
  ExprManager& em = *cfa.expr_manager();
  std::vector<Term> inv;
  for (const Poly& p : values) inv.push_back(to_formula(p, em));
  const InvariantCheck c = check_invariant(cfa, [&](Loc l) { return inv[l]; });
  INFO(c.failure);
  CHECK(c.inductive);
}
#endif

}  // namespace

TEST_CASE("polyhedra AI: k = i and k = 2i after a loop to an unknown n, Box cannot") {
  for (const char* text : {eq_loop, double_loop}) {
    Cfa cfa = parse_cfa(text, "loop.cfa");
    const Loc err = *cfa.error_location();
    for (auto w : {PolyhedraWidening::H79, PolyhedraWidening::BHRZ03}) {
      const auto r = interpret(cfa, PolyhedraDomain(program_thresholds(cfa), w));
      CHECK(r.values[err].is_bottom());
      CHECK(r.widenings >= 1);
      check_reachable_states_covered(cfa, r.values);
#ifdef PRECIS_HAVE_CVC5
      check_certificate(cfa, r.values);
#endif
    }
    CHECK(interpret(cfa, PolyhedraDomain{}).values[err].is_bottom());  // no thresholds
    // The invariant is a relation: intervals lose it.
    CHECK_FALSE(interpret(cfa, BoxDomain{}).values[err].is_bottom());
  }
}

TEST_CASE("polyhedra AI: an unsafe variant keeps the error location reachable") {
  Cfa cfa = parse_cfa(double_loop_unsafe, "unsafe.cfa");
  const auto r = interpret(cfa, PolyhedraDomain(program_thresholds(cfa)));
  const Poly& at_err = r.values[*cfa.error_location()];
  CHECK_FALSE(at_err.is_bottom());
  check_reachable_states_covered(cfa, r.values);
  // What the error location holds: k = 2i > i, so i >= 1.
  const PolyhedraDomain d;
  const VarId i = cfa.exprs().find("i")->id;
  CHECK(d.bounds(at_err, i).lo() == Bound(1));
}

TEST_CASE("polyhedra AI: nested loops terminate with the relation c = 3i + j") {
  Cfa cfa = parse_cfa(nested, "nested.cfa");
  for (auto w : {PolyhedraWidening::H79, PolyhedraWidening::BHRZ03}) {
    for (bool thresholds : {false, true}) {
      CAPTURE(thresholds);
      const auto r =
          interpret(cfa, PolyhedraDomain(thresholds ? program_thresholds(cfa) : Thresholds{}, w));
      CHECK(r.updates < 60);
      check_reachable_states_covered(cfa, r.values, 60);
      auto& em = cfa.exprs();
      const Term i = em.var(em.find("i")->id);
      const Term j = em.var(em.find("j")->id);
      const Term c = em.var(em.find("c")->id);
      Loc l2 = 0;
      for (Loc l = 0; l < cfa.num_locations(); ++l)
        if (cfa.name(l) == "L2") l2 = l;
      const PolyhedraDomain d;
      const Term three_i_j = em.add(em.mul(em.int_val(3), i), j);
      // Without thresholds the inner widening forgets j <= 3 before the outer loop has
      // seen j = 3 at its exit: c >= 3i + j survives, the equality and the proof do not
      // (the descending rounds restore j <= 3 but not what the outer head lost).
      const Term rel = thresholds ? em.eq(c, three_i_j) : em.ge(c, three_i_j);
      CHECK(d.leq(r.values[l2], d.assume(d.top(), rel)));
      // With the thresholds 2, 3, 4 of `i < 3`, i stays at most 3: c = 9 at the exit.
      CHECK(r.values[*cfa.error_location()].is_bottom() == thresholds);
#ifdef PRECIS_HAVE_CVC5
      if (thresholds) check_certificate(cfa, r.values);
#endif
    }
  }
}

#ifdef PRECIS_HAVE_CVC5
static_assert(VintaDomain<PolyhedraDomain>);

TEST_CASE("polyhedra: VINTA over polyhedra proves the relational loop, certified") {
  Cfa cfa = parse_cfa(eq_loop, "loop.cfa");
  Vinta<PolyhedraDomain> vinta(cfa, PolyhedraDomain{});
  Limits limits;
  limits.time_limit_s = 20;
  const VerificationResult r = vinta.run(&limits);
  INFO(r.reason);
  CHECK(r.verdict == Verdict::Safe);
}
#endif

// ---- intervals, the size limit and the deadline ----------------------------------------

namespace {

// x0 .. x(n-1), integers.
struct Many {
  ExprManager em;
  std::vector<Term> x;
  explicit Many(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      x.push_back(em.var(em.declare("x" + std::to_string(i), Type::Int)));
  }
  Term c(std::int64_t v) { return em.int_val(v); }
  // lo <= x_i <= lo + i + 1: a box (2^n vertices as one polyhedron).
  Term box(std::int64_t lo) {
    std::vector<Term> conj;
    for (std::size_t i = 0; i < x.size(); ++i) {
      conj.push_back(em.le(c(lo), x[i]));
      conj.push_back(em.le(x[i], c(lo + static_cast<std::int64_t>(i) + 1)));
    }
    return em.conj(conj);
  }
  // 0 <= x0 <= 1 and 0 <= x_i - x_(i-1) <= 1: a skewed cube, 2^n vertices, every
  // variable related to its neighbours.
  Term skewed() {
    std::vector<Term> conj{em.le(c(0), x[0]), em.le(x[0], c(1))};
    for (std::size_t i = 1; i < x.size(); ++i) {
      conj.push_back(em.le(c(0), em.sub(x[i], x[i - 1])));
      conj.push_back(em.le(em.sub(x[i], x[i - 1]), c(1)));
    }
    return em.conj(conj);
  }
};

// A loop whose head collects n independently bounded counters (x_i counts to i + 1 on
// its own edge): a box of 2^n vertices for a plain polyhedra domain.
std::string box_loop(std::size_t n) {
  std::string t = "main process boxes {\n";
  for (std::size_t i = 0; i < n; ++i) t += "  var x" + std::to_string(i) + " : int\n";
  t += "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n  L0 -> L1 {";
  for (std::size_t i = 0; i < n; ++i) t += " x" + std::to_string(i) + " := 0";
  t += " }\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string x = "x" + std::to_string(i);
    t += "  L1 -> L1 { assume " + x + " < " + std::to_string(i + 1) + "  " + x + " := " + x +
         " + 1 }\n";
  }
  const std::string last = "x" + std::to_string(n - 1);
  t += "  L1 -> ERR { assume " + last + " > " + std::to_string(n) + " }\n";
  t += "  L1 -> END { assume " + last + " <= " + std::to_string(n) + " }\n}\n";
  return t;
}

Deadline in_ms(int ms) {
  return {std::chrono::steady_clock::now() + std::chrono::milliseconds(ms),
          "time limit reached (test)"};
}

}  // namespace

TEST_CASE("polyhedra: variables with bounds only are intervals; results are unchanged") {
  Vars v;
  auto& em = v.em;
  const PolyhedraDomain d;
  const Poly top = d.top();
  // A box is intervals only, and a relation makes its variables dimensions again.
  const Poly b = d.assume(top, v.all({em.ge(v.X, v.c(0)), em.le(v.X, v.c(3)), em.eq(v.Z, v.c(1))}));
  CHECK(b.variables().empty());
  CHECK(b.intervals().size() == 2);
  CHECK(d.bounds(b, v.x) == Interval(0, 3));
  CHECK(to_str(b, em) == "{x >= 0, x <= 3, z = 1}");
  CHECK(to_formula(b, em) ==
        em.conj(std::vector<Term>{em.ge(v.X, v.c(0)), em.le(v.X, v.c(3)), em.eq(v.Z, v.c(1))}));
  const Poly r = d.assume(b, em.le(v.Y, v.X));
  CHECK(r.variables() == std::vector<VarId>{v.x, v.y});
  CHECK(d.bounds(r, v.y) == Interval(Bound::neg_inf(), Bound(3)));
  // The same set with x and z as dimensions (meet keeps its operands' shape): equal,
  // equally hashed, leq both ways.
  const Poly rel = d.assume(top, em.le(em.sub(v.X, v.Z), v.c(100)));  // redundant in b
  const Poly m = d.meet(b, rel);
  CHECK(m.variables() == std::vector<VarId>{v.x, v.z});
  CHECK(m == b);
  CHECK(d.hash(m) == d.hash(b));
  CHECK((d.leq(m, b) && d.leq(b, m)));
  // The hull relates intervals that differ: the points (0, 0) and (1, 1) give x = y.
  const Poly p0 = d.assume(top, v.all({em.eq(v.X, v.c(0)), em.eq(v.Y, v.c(0))}));
  const Poly p1 = d.assume(top, v.all({em.eq(v.X, v.c(1)), em.eq(v.Y, v.c(1))}));
  CHECK(p0.variables().empty());
  const Poly j = d.join(p0, p1);
  CHECK(d.leq(j, d.assume(top, em.eq(v.X, v.Y))));
  CHECK(d.bounds(j, v.x) == Interval(0, 1));
  // ... and the widening keeps the relation.
  const Poly w =
      d.widen(j, d.join(j, d.assume(top, v.all({em.eq(v.X, v.c(2)), em.eq(v.Y, v.c(2))}))));
  CHECK(d.leq(w, d.assume(top, em.eq(v.X, v.Y))));
  CHECK(d.bounds(w, v.x) == Interval(Bound(0), Bound::pos_inf()));
  // Assignments and havoc of an interval.
  CHECK(d.bounds(d.post(b, Assign{v.x, em.add(v.X, v.c(2))}), v.x) == Interval(2, 5));
  CHECK(d.bounds(d.post(b, Assign{v.z, v.c(7)}), v.z) == Interval(7, 7));
  CHECK(d.bounds(d.post(b, Havoc{v.x}), v.x).is_top());
  CHECK(d.post(d.post(b, Havoc{v.x}), Havoc{v.z}).is_top());
  // A box of 16 variables: intervals, so the join is one of intervals too.
  Many n(16);
  const Poly b0 = d.assume(d.top(), n.box(0));
  CHECK(b0.variables().empty());
  CHECK(b0.intervals().size() == 16);
  const Poly b1 = d.assume(b0, em.eq(n.x[3], n.c(1)));
  CHECK(d.join(b0, b1) == b0);
  CHECK(d.leq(b1, b0));
}

TEST_CASE("polyhedra: the size limit weakens large elements soundly, and counts it") {
  // Boxes of 8 variables that differ everywhere: their hull has 2 * 2^8 vertices, above
  // a limit of 100: joined as intervals.
  Many n(8);
  PolyhedraDomain d;
  d.set_size_limit(100);
  const Poly a = d.assume(d.top(), n.box(0));
  const Poly b = d.assume(d.top(), n.box(5));
  const Poly weak = d.join(a, b);
  CHECK(d.statistics().interval_joins == 1);
  CHECK(weak.variables().empty());
  PolyhedraDomain exact;
  exact.set_size_limit(0);
  const Poly hull = exact.join(a, b);
  CHECK(hull.variables().size() == 8);
  CHECK(exact.leq(hull, weak));
  CHECK_FALSE(exact.leq(weak, hull));
  CHECK(exact.statistics().interval_joins == 0);
  // A skewed cube (2^8 vertices, all variables related): to the constraints on two
  // variables, which are all of them, then to the bounding box.
  const Poly cube = exact.assume(exact.top(), n.skewed());
  CHECK(cube.variables().size() == 8);
  const Poly boxed = d.assume(d.top(), n.skewed());
  CHECK(d.statistics().two_variable > 0);
  CHECK(d.statistics().intervals > 0);
  CHECK(d.statistics().largest > 100);
  CHECK(exact.leq(cube, boxed));
  CHECK(d.bounds(boxed, n.x[7].var()) == Interval(0, 8));
  // With room for the cube, nothing is weakened.
  PolyhedraDomain roomy;
  roomy.set_size_limit(1000);
  CHECK(roomy.assume(roomy.top(), n.skewed()) == cube);
  CHECK(roomy.statistics().two_variable == 0);
}

TEST_CASE("polyhedra: the deadline stops an exponential PPL operation") {
  namespace ppl = Parma_Polyhedra_Library;
  // The guard installs a Throwable only with a deadline, and restores what was there.
  CHECK(ppl::abandon_expensive_computations == nullptr);
  {
    const Deadline none;
    const PplDeadlineGuard g(none);
    CHECK(ppl::abandon_expensive_computations == nullptr);
    const Deadline far = in_ms(3600 * 1000);
    const PplDeadlineGuard outer(far);
    const ppl::Throwable* installed = ppl::abandon_expensive_computations;
    CHECK(installed != nullptr);
    {
      const PplDeadlineGuard inner(far);
      CHECK(ppl::abandon_expensive_computations != installed);
    }
    CHECK(ppl::abandon_expensive_computations == installed);
  }
  CHECK(ppl::abandon_expensive_computations == nullptr);

  // A skewed cube of 24 variables (2^24 vertices: minutes and gigabytes) without the size
  // limit: the deadline ends the assume inside PPL's conversion.
  Many n(24);
  PolyhedraDomain d;
  d.set_size_limit(0);
  d.set_deadline(in_ms(100));
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_AS((void)d.assume(d.top(), n.skewed()), limit_reached);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(s < 30);  // 0.1 s and a poll; a generous bound for sanitizers and a loaded machine
  CHECK(ppl::abandon_expensive_computations == nullptr);
  // The domain works on after the run that threw (new elements).
  d.set_deadline({});
  CHECK(d.bounds(d.assume(d.top(), n.em.le(n.x[0], n.c(3))), 0) ==
        Interval(Bound::neg_inf(), Bound(3)));
}

TEST_CASE("polyhedra AI: 16 bounded counters at one loop head, quickly") {
  Cfa cfa = parse_cfa(box_loop(16), "boxes.cfa");
  PolyhedraDomain d(program_thresholds(cfa));
  d.set_deadline(in_ms(60 * 1000));
  const auto r = interpret(cfa, d);
  CHECK(r.values[*cfa.error_location()].is_bottom());
  CHECK(d.statistics().intervals == 0);
}

#ifdef PRECIS_HAVE_CVC5
TEST_CASE("polyhedra: VINTA ends with UNKNOWN when the deadline strikes inside PPL") {
  // The program starts in a skewed cube of 24 variables (0 <= x0 <= 1, 0 <= x_i - x_(i-1)
  // <= 1: 2^24 vertices, minutes and gigabytes for PPL's conversion, as in the test above)
  // and loops on x0 below 1; the error needs x0 > 1, so the program is SAFE, but without
  // the size limit the first abstract post into the loop head is that conversion: the one
  // second's deadline must end it inside PPL, and the run with UNKNOWN.
  const std::size_t n = 24;
  std::string t = "main process cube {\n";
  for (std::size_t i = 0; i < n; ++i) t += "  var x" + std::to_string(i) + " : int\n";
  t += "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n  L0 -> L1 {";
  for (std::size_t i = 0; i < n; ++i) t += " havoc x" + std::to_string(i);
  t += " assume 0 <= x0  assume x0 <= 1";
  for (std::size_t i = 1; i < n; ++i) {
    const std::string d = "x" + std::to_string(i) + " - x" + std::to_string(i - 1);
    t += "  assume 0 <= " + d + "  assume " + d + " <= 1";
  }
  t += " }\n  L1 -> L1 { assume x0 < 1  x0 := x0 + 1 }\n";
  t += "  L1 -> ERR { assume x0 > 1 }\n  L1 -> END { assume x0 <= 1 }\n}\n";
  Cfa cfa = parse_cfa(t, "cube.cfa");
  PolyhedraDomain d;
  d.set_size_limit(0);
  Limits limits;
  limits.time_limit_s = 1;
  d.set_deadline(Deadline::of(limits));
  Vinta<PolyhedraDomain> vinta(cfa, d);
  const VerificationResult r = vinta.run(&limits);
  INFO(r.reason);
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("time limit") != std::string::npos);
  CHECK(limits.elapsed() < 30);  // a second and a poll; generous for a loaded machine
}
#endif

}  // namespace polyhedra_test

namespace polyhedra_rounding_test {

// PPL's initializer sets the FPU to round upwards; a program that includes the
// polyhedra domain must still evaluate C's float and double to nearest, also before the
// first PolyhedraDomain exists: 0.24999999999999997 + 1e-17 is 0.24999999999999997
// (1e-17 is below half an ulp), not 0.25 as rounding upwards gives.
TEST_CASE("polyhedra: including PPL leaves floating-point evaluation rounding to nearest") {
  CHECK(std::fegetround() == FE_TONEAREST);
  ExprManager em;
  const Term x = em.fp_val(Type::Float64, fp::bits_of(0.24999999999999997));
  const Term sum = em.mk(Op::FpAdd, {x, em.fp_val(Type::Float64, fp::bits_of(1e-17))});
  CHECK(evaluate(sum, EmptyValuation{}) == x.value());
  // a host that changed the mode again (another library): the evaluator restores it
  std::fesetround(FE_UPWARD);
  CHECK(evaluate(sum, EmptyValuation{}) == x.value());
  std::fesetround(FE_TONEAREST);
}

}  // namespace polyhedra_rounding_test
