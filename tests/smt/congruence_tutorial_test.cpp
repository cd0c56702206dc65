// The domain tutorial (docs/new-domain.md): a congruence domain written outside
// the library (examples/domains/congruence.hpp) runs under abstract interpretation, VINTA
// and CEGAR (through DomainAnalysis, cpa/domain_analysis.hpp) with no edit to the library.
// Its lattice and hashing laws and the soundness of its transfer function are checked by
// brute force on small values; every SAFE is certified by the independent checker, every
// UNSAFE carries a replayed counterexample. The snippets of the tutorial are the helpers
// below.

#include <doctest/doctest.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../../examples/domains/congruence.hpp"
#include "../support/counterexample_checks.hpp"
#include "../support/lattice_laws.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certify.hpp"
#include "precis/cpa/domain_analysis.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"

using namespace precis;

namespace congruence_tutorial_test {

using precis_tutorial::Congruence;
using precis_tutorial::CongruenceDomain;
using precis_tutorial::Congruences;

namespace {

Cfa model(const std::string& name) {
  return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/congruence/" + name + ".cfa");
}

// ---- the tutorial's snippets -------------------------------------------------------------

// Abstract interpretation: one element per location; SAFE when the error location's is
// bottom and the certificate checker proves the elements' formulas inductive.
template <class D>
VerificationResult interpret(const Cfa& cfa, D domain) {
  AbstractInterpreter<D> ai(cfa, domain);
  AbstractInterpretation<typename D::element> run = ai.run();
  VerificationResult r;
  r.reason = run.reason;
  if (!run.complete || !domain.is_bottom(run.values[*cfa.error_location()])) return r;
  Certificate cert;
  cert.point.assign(cfa.num_locations(), true);
  cert.disjuncts.assign(cfa.num_locations(), {});
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (!domain.is_bottom(run.values[l]))
      cert.disjuncts[l].push_back(to_formula(run.values[l], *cfa.expr_manager()));
  r.verdict = Verdict::Safe;
  certify_safe(cfa, cert, r);  // SAFE stays SAFE only with a valid certificate
  return r;
}

// VINTA: checks its invariant itself before it says SAFE.
VerificationResult vinta(const Cfa& cfa) {
  Vinta<CongruenceDomain> v(cfa, CongruenceDomain{});
  Limits limits;
  limits.time_limit_s = 30;
  return v.run(&limits);
}

// CEGAR over any analysis and refiner, every SAFE certified from the final ARG.
template <class Analysis, class Refiner = default_refiner_t<Analysis>>
VerificationResult cegar(const Cfa& cfa, Analysis analysis, Refiner refiner,
                         std::size_t max_arg_nodes = 0) {
  CegarOptions o;
  o.time_limit_s = 30;
  o.max_arg_nodes = max_arg_nodes;
  CEGAR<Analysis, Refiner> c(cfa, o, std::move(analysis), std::move(refiner));
  VerificationResult r = c.run();
  certify_safe(cfa, c.analysis(), c.arg(), r);
  return r;
}

using Cong = DomainAnalysis<CongruenceDomain, MergeJoin>;  // merge-join: chains are finite
using ExplCong = ProductDomain<Expl, Cong>;

// ---- helpers of the brute-force checks -------------------------------------------------

bool contains(Congruence c, std::int64_t v) {
  return c.m == 0 ? v == c.a : ((v % c.m) + c.m) % c.m == c.a;
}
bool contains(const Congruences& e, const std::vector<std::int64_t>& vals) {
  if (e.bottom) return false;
  for (const auto& [v, c] : e.env)
    if (!contains(c, vals[v])) return false;
  return true;
}
Congruences env(std::initializer_list<std::pair<VarId, Congruence>> kv) {
  Congruences e;
  for (const auto& [v, c] : kv) e.set(v, precis_tutorial::cong::norm(c.a, c.m));
  return e;
}
// Counts failed brute-force checks and describes the first (one doctest assertion for
// millions of checks).
struct Failures {
  std::size_t count = 0;
  std::string first;
  template <class Describe>
  void expect(bool ok, Describe&& describe) {
    if (!ok && count++ == 0) first = describe();
  }
};
std::string show(Congruence c) {
  std::ostringstream os;
  os << c.a << " mod " << c.m;
  return os.str();
}

// Small congruences: every a + mZ with m in [0, 6] and a in [0, m) (or [-3, 3] for m = 0).
std::vector<Congruence> small_values() {
  std::vector<Congruence> out;
  for (std::int64_t a = -3; a <= 3; ++a) out.push_back({a, 0});
  for (std::int64_t m = 1; m <= 6; ++m)
    for (std::int64_t a = 0; a < m; ++a) out.push_back({a, m});
  return out;
}

}  // namespace

TEST_CASE("congruence tutorial: value arithmetic is sound, join and meet are exact") {
  namespace cg = precis_tutorial::cong;
  const auto vals = small_values();
  Failures f;
  for (const Congruence x : vals)
    for (const Congruence y : vals) {
      const auto at = [&](const char* what, std::int64_t v) {
        return [=] {
          return std::string(what) + " at " + show(x) + ", " + show(y) +
                 ", v = " + std::to_string(v);
        };
      };
      Congruence m;
      const bool nonempty = cg::meet(x, y, m);
      for (const Congruence z : vals)  // join is the least upper bound
        f.expect(!cg::leq(x, z) || !cg::leq(y, z) || cg::leq(cg::join(x, y), z),
                 at("join is least", z.a));
      for (std::int64_t v = -40; v <= 40; ++v) {
        // meet is the intersection, join contains both, leq is inclusion (on the sample)
        f.expect((contains(x, v) && contains(y, v)) == (nonempty && contains(m, v)), at("meet", v));
        f.expect(!(contains(x, v) || contains(y, v)) || contains(cg::join(x, y), v), at("join", v));
        f.expect(!cg::leq(x, y) || !contains(x, v) || contains(y, v), at("leq", v));
        if (!contains(x, v)) continue;
        f.expect(contains(cg::neg(x), -v), at("neg", v));
        for (std::int64_t k : {-5, -3, 2, 4, 6})
          f.expect(contains(cg::mod(x, k), *arith::mod(v, k)), at("mod", k));
        for (std::int64_t w = -12; w <= 12; ++w) {
          if (!contains(y, w)) continue;
          f.expect(contains(cg::add(x, y), v + w), at("add", w));
          f.expect(contains(cg::mul(x, y), v * w), at("mul", w));
        }
      }
    }
  INFO(f.first);
  CHECK(f.count == 0);
  // The least upper bound and the Chinese remainder theorem, by example.
  CHECK(cg::join({0, 0}, {4, 0}) == Congruence{0, 4});
  CHECK(cg::join({1, 4}, {3, 4}) == Congruence{1, 2});
  Congruence m;
  REQUIRE(cg::meet({1, 4}, {3, 6}, m));
  CHECK(m == Congruence{9, 12});
  CHECK_FALSE(cg::meet({0, 2}, {1, 4}, m));
  // Beyond 64 bits: top, never a wrapped value.
  const std::int64_t big = std::int64_t{1} << 62;
  CHECK(cg::add({big, 0}, {big, 0}) == Congruence{});
  CHECK(cg::mul({big, 0}, {4, 0}) == Congruence{});
  CHECK(cg::mod({5, 0}, INT64_MIN) == Congruence{5, 0});  // |k| > 5
}

TEST_CASE("congruence tutorial: lattice and hashing laws") {
  CongruenceDomain d;
  const VarId x = 0, y = 1;
  const std::vector<Congruences> samples{
      d.bottom(),
      d.top(),
      env({{x, {0, 0}}}),
      env({{x, {4, 0}}}),
      env({{x, {0, 4}}}),
      env({{x, {0, 2}}}),
      env({{x, {1, 2}}}),
      env({{x, {3, 6}}}),
      env({{x, {-5, 0}}}),
      env({{y, {2, 3}}}),
      env({{x, {1, 4}}, {y, {7, 0}}}),
      env({{x, {0, 4}}, {y, {2, 3}}}),
  };
  testing::check_lattice_laws(d, samples);
  testing::check_hashing_laws(d, samples);
  // The chain a counting loop climbs is short: x = 0, then x = 0 (mod 4), then stable.
  Congruences head = env({{x, {0, 0}}});
  Congruences next = d.join(head, env({{x, {4, 0}}}));
  CHECK(next == env({{x, {0, 4}}}));
  CHECK(d.join(next, env({{x, {8, 0}}})) == next);
}

TEST_CASE("congruence tutorial: post is sound on every small valuation, gamma is to_formula") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int), y = em.declare("y", Type::Int);
  em.declare("p", Type::Bool);
  const Term X = em.var(x), Y = em.var(y);
  const auto c = [&](std::int64_t v) { return em.int_val(v); };
  const std::vector<Operation> ops{
      Assign{x, em.add(Y, c(3))},
      Assign{x, em.sub(em.mul(c(2), Y), X)},
      Assign{x, em.mul(X, Y)},
      Assign{y, em.mod(X, c(-4))},
      Assign{x, em.neg(X)},
      Assign{x, em.ite(em.eq(Y, c(0)), c(4), c(10))},
      Assign{x, em.div(X, c(2))},
      Havoc{x},
      Skip{},
      Assume{em.eq(X, em.add(Y, c(1)))},
      Assume{em.eq(em.mod(X, c(3)), c(2))},
      Assume{em.eq(c(1), em.mod(Y, c(-2)))},
      Assume{em.neq(X, c(5))},
      Assume{em.not_(em.eq(X, Y))},
      Assume{em.or_(em.eq(X, c(3)), em.eq(Y, c(4)))},
      Assume{em.not_(em.and_(em.eq(X, c(3)), em.eq(Y, c(4))))},
      Assume{em.eq(X, em.mul(c(2), Y))},
      Assume{em.lt(X, Y)},
      Assume{em.eq(em.mod(X, c(4)), c(7))},
  };
  CongruenceDomain d;
  std::vector<Congruences> states{d.top(), d.bottom()};
  for (const Congruence cx : small_values())
    for (const Congruence cy : {Congruence{}, Congruence{1, 2}, Congruence{2, 0}, Congruence{0, 3}})
      states.push_back(env({{x, cx}, {y, cy}}));
  Failures f;
  for (std::size_t n = 0; n < states.size(); ++n) {
    const Congruences& s = states[n];
    const Term gamma = to_formula(s, em);
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const Congruences post = d.post(s, ops[k]);
      for (std::int64_t vx = -12; vx <= 12; ++vx)
        for (std::int64_t vy = -12; vy <= 12; ++vy) {
          std::vector<std::int64_t> vals{vx, vy, 0};
          const auto val = [&](VarId v) -> OptValue { return vals[v]; };
          const auto at = [&](const char* what) {
            return [&, what] {
              return std::string(what) + ": state " + std::to_string(n) + ", " +
                     to_string(ops[k], em) + ", x = " + std::to_string(vx) +
                     ", y = " + std::to_string(vy);
            };
          };
          // gamma(s) as a formula is gamma(s) as a set
          f.expect((evaluate(gamma, val) == OptValue{1}) == contains(s, vals), at("gamma"));
          if (!contains(s, vals)) continue;
          if (const auto* a = std::get_if<Assume>(&ops[k])) {
            f.expect(evaluate(a->cond, val) != OptValue{1} || contains(post, vals), at("assume"));
          } else if (const auto* a = std::get_if<Assign>(&ops[k])) {
            const OptValue v = evaluate(a->value, val);
            REQUIRE(v);
            vals[a->var] = *v;
            f.expect(contains(post, vals), at("assign"));
          } else if (const auto* h = std::get_if<Havoc>(&ops[k])) {
            for (std::int64_t v = -20; v <= 20; ++v) {
              vals[h->var] = v;
              f.expect(contains(post, vals), at("havoc"));
            }
          } else {
            f.expect(contains(post, vals), at("skip"));
          }
        }
    }
  }
  INFO(f.first);
  CHECK(f.count == 0);
  // Reading back its own formulas loses nothing (VINTA turns labels into elements so).
  for (const Congruences& s : states) CHECK(d.post(d.top(), Assume{to_formula(s, em)}) == s);
}

TEST_CASE("congruence tutorial: abstract interpretation proves what intervals cannot") {
  for (const char* name : {"count_by_4_safe", "two_counters_safe"}) {
    CAPTURE(name);
    Cfa cfa = model(name);
    VerificationResult cong = interpret(cfa, CongruenceDomain{});
    CHECK(cong.verdict == Verdict::Safe);
    CHECK(cong.certified);
    CHECK(interpret(cfa, BoxDomain{}).verdict == Verdict::Unknown);
  }
  // Odd x can be 7: the error location keeps a state.
  CHECK(interpret(model("count_by_2_unsafe"), CongruenceDomain{}).verdict == Verdict::Unknown);
}

TEST_CASE("congruence tutorial: VINTA over congruences") {
  for (const char* name : {"count_by_4_safe", "two_counters_safe"}) {
    CAPTURE(name);
    VerificationResult r = vinta(model(name));
    INFO(r.reason);
    CHECK(r.verdict == Verdict::Safe);
    CHECK(r.certified);
  }
  Cfa cfa = model("count_by_2_unsafe");
  VerificationResult r = vinta(cfa);
  INFO(r.reason);
  REQUIRE(r.verdict == Verdict::Unsafe);
  testing::check_counterexample(cfa, r);
}

TEST_CASE("congruence tutorial: CEGAR over DomainAnalysis, alone and with explicit values") {
  static_assert(ConfigurableProgramAnalysis<Cong, EdgeRef, Loc>);
  static_assert(InterpretableDomain<CongruenceDomain> && VintaDomain<CongruenceDomain>);
  static_assert(HashableDomain<CongruenceDomain> && HasMeet<CongruenceDomain>);
  static_assert(std::same_as<default_refiner_t<Cong>, FixedPrecisionRefiner>);
  static_assert(std::same_as<default_refiner_t<ExplCong>,
                             ProductRefiner<ExplicitRefiner, FixedPrecisionRefiner>>);
  static_assert(std::same_as<ExplCong::merge_type, ProductMerge<MergeSep, MergeJoin>>);

  for (const char* name : {"count_by_4_safe", "two_counters_safe"}) {
    CAPTURE(name);
    Cfa cfa = model(name);
    VerificationResult alone = cegar(cfa, Cong(cfa), FixedPrecisionRefiner(cfa));
    INFO(alone.reason);
    CHECK(alone.verdict == Verdict::Safe);
    CHECK(alone.certified);
    VerificationResult both =
        cegar(cfa, ExplCong(Expl(cfa), Cong(cfa)), default_refiner_t<ExplCong>(cfa));
    INFO(both.reason);
    CHECK(both.verdict == Verdict::Safe);
    CHECK(both.certified);
    CHECK(both.stats.refinements == 0);
    // Explicit values alone unroll the loop until a limit stops them.
    VerificationResult expl = cegar(cfa, Expl(cfa), ExplicitRefiner(cfa), 2000);
    CHECK(expl.verdict == Verdict::Unknown);
    // Merge-sep keeps x = 0, x = 4, ... apart: the loop is unrolled until a limit, too.
    VerificationResult sep =
        cegar(cfa, DomainAnalysis<CongruenceDomain>(cfa), FixedPrecisionRefiner(cfa), 2000);
    CHECK(sep.verdict == Verdict::Unknown);
  }

  Cfa cfa = model("count_by_2_unsafe");
  // Alone: the error is not excluded, and a fixed precision cannot refine: UNKNOWN, why.
  CEGAR<Cong> from_cfa{cfa, CegarOptions{}};  // the analysis and its refiner from the CFA
  VerificationResult alone = from_cfa.run();
  CHECK(alone.verdict == Verdict::Unknown);
  CHECK(alone.reason.find("fixed precision") != std::string::npos);
  CHECK(alone.stats.extra.at("fixed-precision error paths") == 1);
  // With explicit values: their refiner refutes the merged path and confirms x = 7.
  VerificationResult both =
      cegar(cfa, ExplCong(Expl(cfa), Cong(cfa)), default_refiner_t<ExplCong>(cfa));
  INFO(both.reason);
  REQUIRE(both.verdict == Verdict::Unsafe);
  testing::check_counterexample(cfa, both);
  CHECK(both.stats.refinements >= 1);
  // Merge-sep propagates the constants 1, 3, 5, 7, and any refiner that confirms
  // counterexamples (here the explicit one) gives UNSAFE.
  VerificationResult sep = cegar(cfa, DomainAnalysis<CongruenceDomain>(cfa), ExplicitRefiner(cfa));
  REQUIRE(sep.verdict == Verdict::Unsafe);
  testing::check_counterexample(cfa, sep);
}

TEST_CASE("congruence tutorial: CEGAR over predicates with congruences") {
  using PredCong = ProductDomain<Pred, Cong>;
  static_assert(std::same_as<default_refiner_t<PredCong>,
                             ProductRefiner<PredicateRefiner, FixedPrecisionRefiner>>);
  Cfa safe = model("count_by_4_safe");
  VerificationResult r =
      cegar(safe, PredCong(Pred(safe), Cong(safe)), default_refiner_t<PredCong>(safe));
  INFO(r.reason);
  CHECK(r.verdict == Verdict::Safe);
  CHECK(r.certified);
  Cfa unsafe = model("count_by_2_unsafe");
  VerificationResult u =
      cegar(unsafe, PredCong(Pred(unsafe), Cong(unsafe)), default_refiner_t<PredCong>(unsafe));
  INFO(u.reason);
  REQUIRE(u.verdict == Verdict::Unsafe);
  testing::check_counterexample(unsafe, u);
}

TEST_CASE("DomainAnalysis is generic: intervals with thresholds through merge-widen") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/box/count_1e6_safe.cfa");
  Thresholds th;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (auto e : cfa.out_edges(l)) add_constants(th, cfa.operation(e));
  using BoxAnalysis = DomainAnalysis<BoxDomain, MergeWiden>;
  static_assert(ConfigurableProgramAnalysis<BoxAnalysis, EdgeRef, Loc>);
  VerificationResult r =
      cegar(cfa, BoxAnalysis(cfa, BoxDomain(std::move(th))), FixedPrecisionRefiner(cfa));
  INFO(r.reason);
  CHECK(r.verdict == Verdict::Safe);
  CHECK(r.certified);
  CHECK(r.stats.arg_nodes < 100);
}

}  // namespace congruence_tutorial_test
