// Every solver call runs under the run's deadline, non-linear paths neither
// hang nor get a wrong verdict, and long paths over many variables stay linear in
// memory. No test asserts wall-clock times: only outcomes (a limit_reached, a verdict).

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "precis/algorithms/cegar.hpp"
#include "precis/core/limits.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/independent_clusters.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/path/error_path.hpp"
#include "precis/refine/explicit_concretizer.hpp"
#include "precis/refine/explicit_interpolation.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/refine/path_constants.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/linearity.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

using namespace precis;

namespace limits_test {

namespace {

Deadline deadline_in(std::chrono::milliseconds ms) {
  return Deadline{std::chrono::steady_clock::now() + ms, "time limit of test reached"};
}
Deadline passed_deadline() {
  return Deadline{std::chrono::steady_clock::now() - std::chrono::seconds(1),
                  "time limit of test reached"};
}

// x^3 + y^3 = z^3 over positive integers: cvc5's non-linear solver never finishes.
Term fermat(ExprManager& em) {
  Term x = em.var(em.declare("x", Type::Int));
  Term y = em.var(em.declare("y", Type::Int));
  Term z = em.var(em.declare("z", Type::Int));
  auto cube = [&](Term t) { return em.mk(Op::Mul, {t, t, t}); };
  Term zero = em.int_val(0);
  std::vector<Term> cs{em.eq(em.add(cube(x), cube(y)), cube(z)), em.gt(x, zero), em.gt(y, zero),
                       em.gt(z, zero)};
  return em.conj(cs);
}

// The reason of a limit_reached thrown by f, or "" if none was thrown.
template <class F>
std::string limit_reason(F&& f) {
  try {
    f();
  } catch (const limit_reached& e) {
    CHECK(e.kind() == LimitKind::Time);
    return e.what();
  }
  return {};
}

// The ten-line hang (`assume(b == 3); if (a % b > 2) reach_error();`) and
// its variants, in .cfa: `mod` and `/` are Euclidean, so a mod 3 <= 2 and
// (a / 3) * 3 <= a: both SAFE.
const char* const mod_model = R"(
main process mod_nl {
    var a : int
    var b : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { assume b = 3 }
    L1 -> ERR { assume (a mod b) > 2 }
    L1 -> END { assume not ((a mod b) > 2) }
})";
const char* const div_model = R"(
main process div_nl {
    var a : int
    var b : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { assume b = 3 }
    L1 -> ERR { assume (a / b) * b > a }
    L1 -> END { assume not ((a / b) * b > a) }
})";
// b is assigned, and the product a * c only becomes linear through c := b + 1.
const char* const mul_chain_model = R"(
main process mul_chain {
    var a : int
    var b : int
    var c : int
    var d : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { b := 2  c := b + 1  d := a * c }
    L1 -> L2 { assume d > 0 }
    L2 -> ERR { assume d mod 3 /= 0 }
    L2 -> END { assume d mod 3 = 0 }
})";
// The constant comes after its use on the path (a backward fact).
const char* const backward_model = R"(
main process backward {
    var a : int
    var b : int
    var c : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { assume (a mod b) > 2  c := a * b }
    L1 -> L2 { assume b = 3 }
    L2 -> ERR { assume c mod 3 = 0 }
    L2 -> END { assume not (c mod 3 = 0) }
})";
// No constant to propagate: a mod b < b for b > 0 is beyond every tier. SAFE, so
// UNKNOWN is the honest answer.
const char* const no_constant_model = R"(
main process no_constant {
    var a : int
    var b : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { havoc b  assume b > 0 }
    L1 -> ERR { assume (a mod b) >= b }
    L1 -> END { assume not ((a mod b) >= b) }
})";
// UNSAFE: a = 11, b = 3.
const char* const unsafe_model = R"(
main process nl_unsafe {
    var a : int
    var b : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { b := 3 }
    L1 -> ERR { assume (a mod b) = 2 and a > 10 }
    L1 -> END { assume not ((a mod b) = 2) }
})";

enum class Analysis { PredCart, PredBool, ExplPred };
const char* name(Analysis a) {
  return a == Analysis::PredCart   ? "pred-cart"
         : a == Analysis::PredBool ? "pred-bool"
                                   : "expl+pred";
}

// A run as the CLI makes it: the solvers get the run's deadline.
VerificationResult verify(const Cfa& cfa, Analysis a, double time_limit_s) {
  CegarOptions o;
  o.time_limit_s = time_limit_s;
  o.granularity = Granularity::Location;
  o.started = std::chrono::steady_clock::now();
  const Deadline deadline = Deadline::of(CEGAR<PredCart>::run_limits(o));
  PredicateOptions po;
  po.solver.deadline = deadline;
  PredicateRefinerOptions ro;
  ro.solver.deadline = deadline;
  switch (a) {
    case Analysis::PredCart:
      return CEGAR<PredCart>(cfa, o, PredCart(cfa, po), PredicateRefiner(cfa, ro)).run();
    case Analysis::PredBool:
      return CEGAR<PredBool>(cfa, o, PredBool(cfa, po), PredicateRefiner(cfa, ro)).run();
    case Analysis::ExplPred: {
      using Product = ProductDomain<Expl, Pred>;
      using Refiner = ProductRefiner<ExplicitRefiner, PredicateRefiner>;
      return CEGAR<Product, Refiner>(
                 cfa, o, Product(Expl(cfa, 0), Pred(cfa, po)),
                 Refiner(ExplicitRefiner(cfa, deadline), PredicateRefiner(cfa, ro)))
          .run();
    }
  }
  return {};
}

struct PathFixture {
  ExprManager em;
  SsaVars ssa{em};
  Cvc5Solver solver;
  explicit PathFixture(Cvc5Options o = {}) : solver(ssa.ssa(), std::move(o)) {}
  Term v(VarId x) { return em.var(x); }
  Term c(std::int64_t k) { return em.int_val(k); }
};

}  // namespace

TEST_CASE("limits: a passed deadline makes every solver call throw limit_reached") {
  ExprManager em;
  Term x = em.var(em.declare("x", Type::Int));
  Term y = em.var(em.declare("y", Type::Int));
  Cvc5Options o;
  o.deadline = passed_deadline();
  Cvc5Solver s(em, o);
  const Term f = em.gt(x, y);
  const std::vector<VarId> xs{x.var()};
  CHECK(limit_reason([&] { (void)s.check(); }) == "time limit of test reached");
  CHECK(limit_reason([&] { (void)s.check_assuming(std::vector<Term>{f}); }) ==
        "time limit of test reached");
  CHECK(limit_reason([&] { (void)s.simplify(f); }) == "time limit of test reached");
  CHECK(limit_reason([&] { (void)s.eliminate_exists(xs, f); }) == "time limit of test reached");
  CHECK(limit_reason([&] { (void)s.interpolate(em.lt(x, y), em.lt(y, x)); }) ==
        "time limit of test reached");
  // The Farkas LP runs on its own cvc5 instance: it honours the deadline as well.
  PathFixture p;
  const VarId a = p.em.declare("a", Type::Int);
  std::vector<Operation> ops{Assume{p.em.gt(p.v(a), p.c(1))}, Assume{p.em.lt(p.v(a), p.c(0))}};
  PathFormula pf = encode_path(p.ssa, ops);
  CHECK_FALSE(
      limit_reason([&] { (void)farkas_sequence(p.ssa, pf, 4, 2000, passed_deadline()); }).empty());
}

TEST_CASE("limits: a check that runs into the deadline throws, its own timeout answers unknown") {
  {
    // tlimit-per is changed after the solver was used (cvc5 1.0.3 allows it): an easy
    // check first, then one that the deadline ends.
    ExprManager em;
    Term f = fermat(em);
    Cvc5Options o;
    o.timeout_ms = 0;  // no per-call limit: only the deadline bounds the check
    o.deadline = deadline_in(std::chrono::milliseconds(1500));
    Cvc5Solver s(em, o);
    std::vector<Term> easy{em.gt(em.var(0), em.int_val(0))};
    REQUIRE(s.check_assuming(easy) == SatResult::Sat);
    s.push();
    s.assert_(f);
    CHECK(limit_reason([&] { (void)s.check(); }) == "time limit of test reached");
    // The engine of the check the deadline ended is dropped, not popped back: pop()
    // only forgets the frame.
    s.pop();
  }
  {
    // Far from the deadline, the per-call limit gives unknown (with the retry).
    ExprManager em;
    Term f = fermat(em);
    Cvc5Options o;
    o.timeout_ms = 200;
    o.deadline = deadline_in(std::chrono::seconds(60));
    Cvc5Solver s(em, o);
    s.assert_(f);
    CHECK(s.check() == SatResult::Unknown);
    CHECK(s.stats().retries == 1);
    CHECK(s.reason_unknown().find("retry") != std::string::npos);
  }
}

TEST_CASE("limits: QE is declined on non-linear input and exact on linear input") {
  ExprManager em;
  const VarId a = em.declare("a", Type::Int);
  const VarId b = em.declare("b", Type::Int);
  const VarId c = em.declare("c", Type::Int);
  Cvc5Options o;
  o.deadline = deadline_in(std::chrono::seconds(60));
  Cvc5Solver s(em, o);
  const std::vector<VarId> qa{a};
  // exists a. a mod b > 2: cvc5 never returned; now declined at once.
  CHECK_FALSE(s.eliminate_exists(qa, em.gt(em.mod(em.var(a), em.var(b)), em.int_val(2))));
  CHECK_FALSE(s.eliminate_exists(qa, em.gt(em.mul(em.var(a), em.var(b)), em.int_val(2))));
  CHECK(s.stats().qe_declined == 2);
  CHECK(s.stats().qe_calls == 0);
  // Linear: a mod 3 > 2 has no solution; a between b and c exists iff b + 1 < c.
  auto none = s.eliminate_exists(qa, em.gt(em.mod(em.var(a), em.int_val(3)), em.int_val(2)));
  REQUIRE(none);
  CHECK(*none == em.false_());
  auto between =
      s.eliminate_exists(qa, em.and_(em.lt(em.var(b), em.var(a)), em.lt(em.var(a), em.var(c))));
  REQUIRE(between);
  std::vector<Term> differs{em.xor_(*between, em.lt(em.add(em.var(b), em.int_val(1)), em.var(c)))};
  CHECK(s.check_assuming(differs) == SatResult::Unsat);
  // Oversized input is declined too.
  Cvc5Options small = o;
  small.qe_max_size = 3;
  Cvc5Solver t(em, small);
  CHECK_FALSE(
      t.eliminate_exists(qa, em.and_(em.lt(em.var(b), em.var(a)), em.lt(em.var(a), em.var(c)))));
  CHECK(t.stats().qe_declined == 1);
  CHECK(is_linear(em.mul(em.int_val(2), em.var(a))));
  CHECK(is_linear(em.div(em.var(a), em.neg(em.int_val(3)))));
  CHECK_FALSE(is_linear(em.div(em.var(a), em.int_val(0))));
  CHECK_FALSE(is_linear(em.rem(em.int_val(7), em.var(a))));
}

TEST_CASE("limits: the cvc5 interpolation tier runs under the deadline") {
  // x := 2y + 4w^2 (even) against x = 2z + 1 (odd): cvc5's getInterpolant searches for
  // longer than any test would wait (measured: over 30 s; `tlimit` does not stop it).
  Cvc5Options o;
  o.interpolation_timeout_ms = 0;  // only the deadline bounds it
  o.deadline = deadline_in(std::chrono::seconds(1));
  PathFixture f(o);
  const VarId x = f.em.declare("x", Type::Int);
  const VarId y = f.em.declare("y", Type::Int);
  const VarId z = f.em.declare("z", Type::Int);
  const VarId w = f.em.declare("w", Type::Int);
  ExprManager& em = f.em;
  std::vector<Operation> ops{
      Assign{x, em.add(em.mul(f.c(2), f.v(y)), em.mk(Op::Mul, {f.c(4), f.v(w), f.v(w)}))},
      Assume{em.eq(f.v(x), em.add(em.mul(f.c(2), f.v(z)), f.c(1)))}, Skip{}};
  PathInterpolationOptions only_cvc5{false, false, true};
  CHECK(limit_reason([&] { (void)interpolate_path(f.ssa, ops, f.solver, only_cvc5); }) ==
        "time limit of test reached");
  // Without a deadline its own limit ends it: no sequence, and the reason says so.
  Cvc5Options own;
  own.interpolation_timeout_ms = 200;
  PathFixture g(own);
  for (const char* n : {"x", "y", "z", "w"}) g.em.declare(n, Type::Int);
  std::vector<Operation> ops2{
      Assign{0, g.em.add(g.em.mul(g.c(2), g.v(1)), g.em.mk(Op::Mul, {g.c(4), g.v(3), g.v(3)}))},
      Assume{g.em.eq(g.v(0), g.em.add(g.em.mul(g.c(2), g.v(2)), g.c(1)))}, Skip{}};
  std::string why;
  CHECK_FALSE(interpolate_path(g.ssa, ops2, g.solver, only_cvc5, &why));
  CHECK(why.find("cvc5") != std::string::npos);
}

TEST_CASE("limits: constants make a non-linear path linear, and the sequence stays valid") {
  PathFixture f;
  ExprManager& em = f.em;
  const VarId a = em.declare("a", Type::Int);
  const VarId b = em.declare("b", Type::Int);
  const VarId c = em.declare("c", Type::Int);
  auto check = [&](const std::vector<Operation>& ops, bool propagated) {
    REQUIRE(check_path_feasibility(f.ssa, ops, f.solver).infeasible());
    std::string why;
    auto r = interpolate_path(f.ssa, ops, f.solver, {}, &why);
    REQUIRE_MESSAGE(r, why);
    CHECK(r->constants_propagated == propagated);
    CHECK(check_interpolant_sequence(f.ssa, ops, r->interpolants, f.solver).empty());
    return *r;
  };
  // Forward: b = 3 before a mod b > 2. The fact b = 3 is carried to the cut before use.
  auto fwd =
      check({Assume{em.eq(f.v(b), f.c(3))}, Assume{em.gt(em.mod(f.v(a), f.v(b)), f.c(2))}}, true);
  CHECK(fwd.interpolants[1] == em.eq(f.v(b), f.c(3)));
  // Through an assignment chain: c := b + 1 with b := 2 makes a * c linear.
  check({Assign{b, f.c(2)}, Assign{c, em.add(f.v(b), f.c(1))}, Assign{a, em.mul(f.v(a), f.v(c))},
         Assume{em.neq(em.mod(f.v(a), f.c(3)), f.c(0))}},
        true);
  // Backward: the use comes first; the interpolant between is an implication.
  check({Assume{em.gt(em.mod(f.v(a), f.v(b)), f.c(2))}, Skip{}, Assume{em.eq(f.v(b), f.c(3))}},
        true);
  // A linear path is left as it is.
  auto lin = check({Assume{em.eq(f.v(b), f.c(3))}, Assume{em.gt(f.v(b), f.c(4))}}, false);
  CHECK(lin.tier == InterpolantTier::Farkas);
  // Without constants the non-linear path has no sequence, and the reason says why.
  std::vector<Operation> hard{Havoc{b}, Assume{em.gt(f.v(b), f.c(0))},
                              Assume{em.ge(em.mod(f.v(a), f.v(b)), f.v(b))}};
  REQUIRE(check_path_feasibility(f.ssa, hard, f.solver).infeasible());
  std::string why;
  CHECK_FALSE(interpolate_path(f.ssa, hard, f.solver, {}, &why));
  CHECK(why.find("declined") != std::string::npos);
}

TEST_CASE("limits: the non-linear hang ends with a right verdict") {
  struct Case {
    const char* name;
    const char* text;
    Verdict expected;
    bool must_decide;  // constant propagation decides it
  };
  const Case cases[] = {{"mod", mod_model, Verdict::Safe, true},
                        {"div", div_model, Verdict::Safe, true},
                        {"mul chain", mul_chain_model, Verdict::Safe, true},
                        {"backward", backward_model, Verdict::Safe, true},
                        {"no constant", no_constant_model, Verdict::Safe, false},
                        {"unsafe", unsafe_model, Verdict::Unsafe, true}};
  for (const Case& m : cases) {
    Cfa cfa = parse_cfa(m.text, std::string(m.name) + ".cfa");
    for (Analysis a : {Analysis::PredCart, Analysis::PredBool, Analysis::ExplPred}) {
      CAPTURE(m.name);
      CAPTURE(name(a));
      VerificationResult r = verify(cfa, a, 5);
      CAPTURE(r.reason);
      // Never wrong; the run ends (a hang would never get here).
      CHECK(r.verdict != (m.expected == Verdict::Safe ? Verdict::Unsafe : Verdict::Safe));
      if (m.must_decide) CHECK(r.verdict == m.expected);
      if (r.verdict == Verdict::Unsafe) CHECK(r.counterexample);
    }
  }
}

TEST_CASE("limits: a check too large for the time left is declined before cvc5 sees it") {
  // A flat disjunction of 100,000 equalities (300,000 nodes): at 20 us a node cvc5's
  // uninterruptible preprocessing would need 6 s, and 3 s are left. Small checks of the
  // same solver still run.
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Int));
  std::vector<Term> eqs;
  for (int i = 0; i < 100000; ++i) eqs.push_back(em.eq(x, em.int_val(i)));
  const Term big = em.mk(Op::Or, eqs);
  Cvc5Options o;
  o.deadline = deadline_in(std::chrono::seconds(3));
  Cvc5Solver s(em, o);
  REQUIRE(s.check_assuming(std::vector<Term>{em.gt(x, em.int_val(5))}) == SatResult::Sat);
  CHECK(limit_reason([&] { (void)s.check_assuming(std::vector<Term>{big}); }) ==
        "time limit of test reached");
  CHECK(s.stats().declined_near_deadline == 1);
  CHECK(s.check_assuming(std::vector<Term>{em.lt(x, em.int_val(0))}) == SatResult::Sat);
  CHECK_FALSE(fits_before_deadline(o.deadline, 300000));
  CHECK(fits_before_deadline(Deadline{}, 300000));
}

TEST_CASE("limits: encoding a path and splitting a post into clusters poll the deadline") {
  // A guard of 20,000 nodes: rebuilding it over SSA variables polls every 4,096 nodes.
  ExprManager em;
  const VarId x = em.declare("x", Type::Int);
  std::vector<Term> eqs;
  for (int i = 0; i < 10000; ++i) eqs.push_back(em.eq(em.var(x), em.int_val(i)));
  const std::vector<Operation> ops{Assume{em.mk(Op::Or, eqs)}};
  SsaVars ssa(em);
  CHECK(encode_path(ssa, ops).size() == 1);  // no deadline: encoded
  SsaVars late(em);
  late.set_deadline(passed_deadline());
  CHECK(limit_reason([&] { (void)encode_path(late, ops); }) == "time limit of test reached");
  TermVarCache vars;
  vars.set_deadline(passed_deadline());
  const Term guard = std::get<Assume>(ops[0]).cond;
  CHECK(limit_reason([&] { (void)vars.vars(guard); }) == "time limit of test reached");
  TermVarCache unlimited;
  CHECK(unlimited.vars(guard) == std::vector<VarId>{x});
}

TEST_CASE("limits: explicit refinement and the input search throw at the deadline") {
  ExprManager em;
  std::vector<Operation> ops;
  std::vector<VarId> xs;
  for (int i = 0; i < 50; ++i) xs.push_back(em.declare("x" + std::to_string(i), Type::Int));
  for (int i = 0; i < 50; ++i) ops.emplace_back(Assign{xs[i], em.int_val(i)});
  ops.emplace_back(Assume{em.eq(em.var(xs[5]), em.int_val(6))});
  CHECK_FALSE(limit_reason([&] { (void)explicit_interpolants(ops, passed_deadline()); }).empty());
  std::vector<Operation> relational{Havoc{xs[0]}, Havoc{xs[1]},
                                    Assume{em.gt(em.var(xs[0]), em.var(xs[1]))}};
  CHECK_FALSE(limit_reason([&] {
                (void)concretize_inputs(em, relational, 256, passed_deadline());
              }).empty());
}

TEST_CASE("limits: long paths over many variables take linear memory") {
  // 2,000 variables, each written once on a 2,000-step path: the path formula's index
  // and the replay's record hold one entry per step, not one per step and variable.
  const std::size_t n = 2000;
  ExprManager em;
  std::vector<VarId> xs;
  for (std::size_t i = 0; i < n; ++i) xs.push_back(em.declare("x" + std::to_string(i), Type::Int));
  std::vector<Operation> ops;
  for (std::size_t i = 0; i < n; ++i)
    ops.emplace_back(Assign{xs[i], em.int_val(static_cast<std::int64_t>(i))});
  ops.emplace_back(Assume{em.eq(em.var(xs[5]), em.int_val(5))});
  SsaVars ssa(em);
  PathFormula pf = encode_path(ssa, ops);
  std::size_t entries = 0;
  for (const auto& c : pf.changes) entries += c.size();
  CHECK(entries == n);
  CHECK(pf.index_at(0, xs[7]) == 0);
  CHECK(pf.index_at(7, xs[7]) == 0);
  CHECK(pf.index_at(8, xs[7]) == 1);
  CHECK(pf.index_at(n + 1, xs[7]) == 1);

  PathInputs in;
  in.initial.assign(n, 0);
  in.havoc.assign(ops.size(), 0);
  ReplayResult changes = replay(em, ops, in, ReplayRecord::Changes);
  REQUIRE(changes.ok);
  CHECK(changes.states.empty());
  CHECK(changes.changes.size() == n);
  CHECK(changes.state[xs[1999]] == 1999);
  ReplayResult none = replay(em, ops, in, ReplayRecord::None);
  REQUIRE(none.ok);
  CHECK(none.changes.empty());
  CHECK(none.state == changes.state);

  // The counterexample of a run carries the same values as a full replay.
  std::string text = "main process big {\n";
  for (int i = 0; i < 40; ++i) text += "  var x" + std::to_string(i) + " : int\n";
  text += "  init loc L0\n";
  for (int i = 1; i <= 40; ++i) text += "  loc L" + std::to_string(i) + "\n";
  text += "  error loc ERR\n";
  for (int i = 0; i < 40; ++i)
    text += "  L" + std::to_string(i) + " -> L" + std::to_string(i + 1) + " { havoc x" +
            std::to_string(i) + " }\n";
  text += "  L40 -> ERR { assume x3 > x7 and x7 > 100 }\n}\n";
  Cfa cfa = parse_cfa(text, "big.cfa");
  VerificationResult r = verify(cfa, Analysis::PredCart, 20);
  REQUIRE(r.verdict == Verdict::Unsafe);
  REQUIRE(r.counterexample);
  const Counterexample& cex = *r.counterexample;
  REQUIRE(cex.steps.size() == 41);
  // The values after the last step, from the steps' records (only the changes, or every
  // value: both layouts of CounterexampleStep are read).
  std::vector<BigInt> cur = cex.initial;
  auto apply = [&](const auto& st) {
    if constexpr (requires { st.changes; }) {
      for (const auto& [v, val] : st.changes) cur.at(v) = val;
    } else {
      cur = st.values;
    }
  };
  for (const auto& st : cex.steps) apply(st);
  CHECK(cur[3] > cur[7]);
  CHECK(cur[7] > 100);
}

}  // namespace limits_test
