// The library's reduced product of intervals and congruences (domains/congruence/): the
// value lattice's arithmetic and meet against brute force, the product's lattice and
// hashing laws, its post against every small valuation (gamma read through to_formula),
// and abstract interpretation that proves, with a checked certificate, what intervals
// and congruences each cannot prove alone.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../support/counterexample_checks.hpp"
#include "../support/lattice_laws.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certify.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/congruence/interval_congruence.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace interval_congruence_test {

namespace {

std::vector<Congruence> small_congruences() {
  std::vector<Congruence> out{Congruence::bottom()};
  for (std::int64_t a = -3; a <= 3; ++a) out.push_back(Congruence::constant(a));
  for (std::int64_t m = 1; m <= 6; ++m)
    for (std::int64_t a = 0; a < m; ++a) out.push_back(Congruence::of(a, m));
  return out;
}

std::string show(const Congruence& c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

// Counts failed brute-force checks and keeps the first (one assertion for many checks).
struct Failures {
  std::size_t count = 0;
  std::string first;
  void expect(bool ok, const std::string& what) {
    if (!ok && count++ == 0) first = what;
  }
};

IntervalCongruence element(std::initializer_list<std::tuple<VarId, Interval, Congruence>> kv) {
  IntervalCongruenceDomain d;
  IntervalCongruence e;
  for (const auto& [v, i, c] : kv) {
    e.box.set(v, i);
    if (!c.is_top()) e.cong.insert_or_assign(v, c);
  }
  d.reduce(e);
  return e;
}

bool contains(const IntervalCongruence& e, const std::vector<std::int64_t>& vals) {
  if (e.is_bottom()) return false;
  for (const auto& [v, i] : e.box.bounds())
    if (!i.contains(vals[v])) return false;
  for (const auto& [v, c] : e.cong)
    if (!c.contains(vals[v])) return false;
  return true;
}

template <class D>
VerificationResult interpret(const Cfa& cfa, D domain) {
  AbstractInterpreter<D> ai(cfa, domain);
  const auto run = ai.run();
  VerificationResult r;
  REQUIRE(run.complete);
  if (!domain.is_bottom(run.values[*cfa.error_location()])) return r;
  Certificate cert;
  cert.point.assign(cfa.num_locations(), true);
  cert.disjuncts.assign(cfa.num_locations(), {});
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (!domain.is_bottom(run.values[l]))
      cert.disjuncts[l].push_back(to_formula(run.values[l], *cfa.expr_manager()));
  r.verdict = Verdict::Safe;
  certify_safe(cfa, cert, r);
  return r;
}

}  // namespace

TEST_CASE("congruence values: arithmetic is sound, join and meet exact, on small values") {
  Failures f;
  const auto vals = small_congruences();
  const auto members = [](const Congruence& c) {
    std::vector<std::int64_t> out;
    for (std::int64_t v = -30; v <= 30; ++v)
      if (c.contains(v)) out.push_back(v);
    return out;
  };
  for (const Congruence& a : vals) {
    for (const std::int64_t k : {-4, -3, -2, 2, 3, 4, 6}) {
      for (const std::int64_t x : members(a)) {
        const std::string at = show(a) + " k=" + std::to_string(k) + " x=" + std::to_string(x);
        f.expect(a.mod(k).contains(*arith::mod(x, k)), "mod " + at);
        f.expect(a.rem(k).contains(*arith::rem(x, k)), "rem " + at);
        f.expect(a.div(k).contains(*arith::div(x, k)), "div " + at);
      }
    }
    for (const Congruence& b : vals) {
      const std::string at = show(a) + ", " + show(b);
      for (std::int64_t v = -30; v <= 30; ++v) {
        // join contains both; meet is exactly the intersection; leq is inclusion.
        f.expect(!(a.contains(v) || b.contains(v)) || a.join(b).contains(v), "join " + at);
        f.expect(a.meet(b).contains(v) == (a.contains(v) && b.contains(v)), "meet " + at);
      }
      bool included = true;
      for (std::int64_t v = -60; v <= 60; ++v)
        included = included && (!a.contains(v) || b.contains(v));
      f.expect(a.leq(b) == included, "leq " + at);
      for (const std::int64_t x : members(a))
        for (const std::int64_t y : members(b)) {
          const std::string xy = at + " x=" + std::to_string(x) + " y=" + std::to_string(y);
          f.expect(a.add(b).contains(x + y), "add " + xy);
          f.expect(a.sub(b).contains(x - y), "sub " + xy);
          f.expect(a.mul(b).contains(x * y), "mul " + xy);
        }
    }
  }
  INFO(f.first);
  CHECK(f.count == 0);
  // Exactness where it matters: even plus even, a stride, a mod by a divisor.
  CHECK(Congruence::of(0, 2).add(Congruence::constant(2)) == Congruence::of(0, 2));
  CHECK(Congruence::constant(0).join(Congruence::constant(4)) == Congruence::of(0, 4));
  CHECK(Congruence::of(1, 4).mod(2) == Congruence::constant(1));
  CHECK(Congruence::of(2, 6).meet(Congruence::of(0, 4)) == Congruence::of(8, 12));
  // Beyond 64 bits: top, never a wrapped value.
  const Congruence big = Congruence::constant(std::numeric_limits<std::int64_t>::max());
  CHECK(big.add(big).is_top());
  CHECK(big.mul(big).is_top());
}

TEST_CASE("interval-congruence: lattice and hashing laws, and the reduction") {
  IntervalCongruenceDomain d;
  const VarId x = 0, y = 1;
  const std::vector<IntervalCongruence> samples{
      d.bottom(),
      d.top(),
      element({{x, Interval(0, 10), Congruence::of(0, 2)}}),
      element({{x, Interval(0, 10), Congruence::top()}}),
      element({{x, Interval::top(), Congruence::of(1, 2)}}),
      element({{x, Interval::at_least(3), Congruence::of(0, 4)}}),
      element({{x, Interval(4, 4), Congruence::top()}}),
      element({{y, Interval(-5, 5), Congruence::of(2, 3)}}),
      element({{x, Interval(0, 10), Congruence::of(0, 2)}, {y, Interval(1, 1), Congruence::top()}}),
  };
  testing::check_lattice_laws(d, samples);
  testing::check_hashing_laws(d, samples);
  // Bounds move inwards to the class; a singleton is a constant; an empty meet is bottom.
  const IntervalCongruence e = element({{x, Interval(1, 10), Congruence::of(0, 4)}});
  CHECK(e.box.get(x) == Interval(4, 8));
  CHECK(element({{x, Interval(5, 5), Congruence::top()}}).get(x) == Congruence::constant(5));
  CHECK(d.is_bottom(element({{x, Interval(5, 7), Congruence::of(0, 4)}})));
  // Widening widens the box and keeps the joined classes.
  const IntervalCongruence w = d.widen(element({{x, Interval(0, 0), Congruence::top()}}),
                                       element({{x, Interval(0, 2), Congruence::of(0, 2)}}));
  CHECK(w.box.get(x).hi().is_pos_inf());
  CHECK(w.get(x) == Congruence::of(0, 2));
}

TEST_CASE("interval-congruence: post is sound on every small valuation, gamma is to_formula" *
          doctest::test_suite("sweep")) {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int), y = em.declare("y", Type::Int);
  const Term X = em.var(x), Y = em.var(y);
  const auto c = [&](std::int64_t v) { return em.int_val(v); };
  // C's signed x % 2, as the front end writes it: ite(x >= 0, mod(x, 2), -mod(-x, 2)).
  const Term c_rem2 = em.ite(em.ge(X, c(0)), em.mod(X, c(2)), em.neg(em.mod(em.neg(X), c(2))));
  const std::vector<Operation> ops{
      Assign{x, em.add(Y, c(3))},
      Assign{x, em.sub(em.mul(c(2), Y), X)},
      Assign{x, em.mul(X, Y)},
      Assign{y, em.mod(X, c(-4))},
      Assign{y, em.rem(X, c(3))},
      Assign{x, em.div(X, c(2))},
      Assign{x, em.ite(em.eq(Y, c(0)), c(4), c(10))},
      Assign{x, em.mod(em.add(X, c(2)), c(16))},
      Havoc{x},
      Skip{},
      Assume{em.eq(X, em.add(Y, c(1)))},
      Assume{em.eq(em.mod(X, c(3)), c(2))},
      Assume{em.not_(em.eq(em.mod(X, c(2)), c(0)))},
      Assume{em.eq(c_rem2, c(0))},
      Assume{em.not_(em.eq(c_rem2, c(0)))},
      Assume{em.eq(c_rem2, c(-1))},
      Assume{em.or_(em.eq(X, c(3)), em.eq(Y, c(4)))},
      Assume{em.eq(X, em.mul(c(2), Y))},
      Assume{em.lt(X, Y)},
      Assume{em.and_(em.le(c(0), X), em.lt(X, c(9)))},
  };
  IntervalCongruenceDomain d;
  std::vector<IntervalCongruence> states{d.top(), d.bottom()};
  for (const Congruence& cx : small_congruences()) {
    if (cx.is_bottom()) continue;
    for (const Interval& ix : {Interval::top(), Interval(-7, 9), Interval::at_least(2)})
      for (const Congruence& cy :
           {Congruence::top(), Congruence::of(1, 2), Congruence::constant(2)})
        states.push_back(element({{x, ix, cx}, {y, Interval(-8, 8), cy}}));
  }
  Failures f;
  for (std::size_t n = 0; n < states.size(); ++n) {
    const IntervalCongruence& s = states[n];
    const Term gamma = to_formula(s, em);
    for (const Operation& op : ops) {
      const IntervalCongruence post = d.post(s, op);
      for (std::int64_t vx = -12; vx <= 12; ++vx)
        for (std::int64_t vy = -12; vy <= 12; ++vy) {
          std::vector<std::int64_t> vals{vx, vy};
          const auto val = [&](VarId v) -> OptValue { return vals[v]; };
          const std::string at = "state " + std::to_string(n) + ", " + to_string(op, em) +
                                 ", x = " + std::to_string(vx) + ", y = " + std::to_string(vy);
          f.expect((evaluate(gamma, val) == OptValue{1}) == contains(s, vals), "gamma " + at);
          if (!contains(s, vals)) continue;
          if (const auto* a = std::get_if<Assume>(&op)) {
            f.expect(evaluate(a->cond, val) != OptValue{1} || contains(post, vals), "assume " + at);
          } else if (const auto* a = std::get_if<Assign>(&op)) {
            const OptValue v = evaluate(a->value, val);
            REQUIRE(v);
            vals[a->var] = *v;
            f.expect(contains(post, vals), "assign " + at);
          } else if (const auto* h = std::get_if<Havoc>(&op)) {
            for (std::int64_t v = -20; v <= 20; ++v) {
              vals[h->var] = v;
              f.expect(contains(post, vals), "havoc " + at);
            }
          } else {
            f.expect(contains(post, vals), "skip " + at);
          }
        }
    }
  }
  INFO(f.first);
  CHECK(f.count == 0);
  // Precision: the parity tests of C programs refine x's class.
  const IntervalCongruence top = d.top();
  CHECK(d.post(top, Assume{em.eq(c_rem2, c(0))}).get(x) == Congruence::of(0, 2));
  CHECK(d.post(top, Assume{em.not_(em.eq(c_rem2, c(0)))}).get(x) == Congruence::of(1, 2));
  CHECK(d.is_bottom(d.post(element({{x, Interval::top(), Congruence::of(0, 2)}}),
                           Assume{em.not_(em.eq(c_rem2, c(0)))})));
}

TEST_CASE("interval-congruence: AI proves, certified, what intervals alone cannot") {
  const std::string dir = std::string(PRECIS_TEST_MODELS) + "/congruence/";
  for (const char* name : {"count_by_4_safe", "two_counters_safe", "stride_exit_safe"}) {
    CAPTURE(name);
    const Cfa cfa = read_cfa_file(dir + name + ".cfa");
    const VerificationResult r = interpret(cfa, IntervalCongruenceDomain{});
    CHECK(r.verdict == Verdict::Safe);
    CHECK(r.certified);
    CHECK(interpret(cfa, BoxDomain{}).verdict == Verdict::Unknown);
  }
  // The unsafe model is never proved.
  const Cfa bad = read_cfa_file(dir + "count_by_2_unsafe.cfa");
  CHECK(interpret(bad, IntervalCongruenceDomain{}).verdict == Verdict::Unknown);
}

TEST_CASE("interval-congruence under VINTA: proofs checked, the unsafe model refuted") {
  const std::string dir = std::string(PRECIS_TEST_MODELS) + "/congruence/";
  const auto vinta = [&](const char* name) {
    const Cfa cfa = read_cfa_file(dir + name + ".cfa");
    Vinta<IntervalCongruenceDomain> v(cfa, IntervalCongruenceDomain{});
    Limits limits;
    limits.time_limit_s = 30;
    VerificationResult r = v.run(&limits);
    if (r.verdict == Verdict::Unsafe) testing::check_counterexample(cfa, r);
    return r;
  };
  for (const char* name : {"count_by_4_safe", "two_counters_safe", "stride_exit_safe"}) {
    CAPTURE(name);
    const VerificationResult r = vinta(name);
    CHECK(r.verdict == Verdict::Safe);
    CHECK(r.certified);
  }
  const VerificationResult bad = vinta("count_by_2_unsafe");
  CHECK(bad.verdict == Verdict::Unsafe);
  REQUIRE(bad.counterexample);
}

}  // namespace interval_congruence_test
