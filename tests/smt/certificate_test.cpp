// SAFE certificates: read off the final ARG of every CEGAR analysis, proved by
// the independent checker; broken certificates (a disjunct dropped, an edge's
// consecution violated, a partial certificate between points) are rejected with the
// right edge named.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "precis/algorithms/cegar.hpp"
#include "precis/certify/certify.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"

using namespace precis;

namespace certificate_test {

namespace {

Cfa model(const std::string& name) {
  return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/" + name + ".cfa");
}

Loc loc(const Cfa& cfa, const std::string& name) {
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (cfa.name(l) == name) return l;
  FAIL("no location " << name);
  return 0;
}

// The last location besides the initial one whose invariant has two or more disjuncts
// (the place to break a certificate by dropping one).
std::optional<Loc> with_several_disjuncts(const Cfa& cfa, const Certificate& c) {
  std::optional<Loc> found;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (l != cfa.initial_location() && c.disjuncts[l].size() >= 2) found = l;
  return found;
}

// x := 0; while (x < 10) x := x + 1; error if x > 10. Locations: L0 (init), H (loop
// head), B (body), X (exit), ERR.
Cfa counter() {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const Term X = e.var(x);
  b.edge("L0", "H", Assign{x, e.int_val(0)});
  b.edge("H", "B", Assume{e.lt(X, e.int_val(10))});
  b.edge("B", "H", Assign{x, e.add(X, e.int_val(1))});
  b.edge("H", "X", Assume{e.ge(X, e.int_val(10))});
  b.edge("X", "ERR", Assume{e.gt(X, e.int_val(10))});
  b.initial("L0");
  b.error("ERR");
  return std::move(b).build();
}

// The hand-written invariants of counter(), with inv(H) given.
Certificate counter_certificate(const Cfa& cfa, Term at_head) {
  ExprManager& em = *cfa.expr_manager();
  const Term X = em.var(0);
  Certificate c;
  c.point.assign(cfa.num_locations(), true);
  c.disjuncts.assign(cfa.num_locations(), {});
  c.disjuncts[loc(cfa, "L0")] = {em.true_()};
  c.disjuncts[loc(cfa, "H")] = {at_head};
  c.disjuncts[loc(cfa, "B")] = {em.and_(em.le(em.int_val(0), X), em.lt(X, em.int_val(10)))};
  c.disjuncts[loc(cfa, "X")] = {em.eq(X, em.int_val(10))};
  return c;
}

// A certificate with invariants at the named locations only (each false until set).
Certificate at_points(const Cfa& cfa, std::initializer_list<const char*> points) {
  Certificate c;
  c.point.assign(cfa.num_locations(), false);
  c.disjuncts.assign(cfa.num_locations(), {});
  for (const char* p : points) c.point[loc(cfa, p)] = true;
  return c;
}

template <class A, class R>
std::pair<VerificationResult, std::optional<Certified>> run_certified(const Cfa& cfa, A a, R r) {
  CegarOptions o;
  o.time_limit_s = 30;
  CEGAR<A, R> cegar(cfa, o, std::move(a), std::move(r));
  VerificationResult res = cegar.run();
  auto c = certify_safe(cfa, cegar.analysis(), cegar.arg(), res);
  return {res, c};
}

}  // namespace

TEST_CASE(
    "certificate: a hand-written inductive invariant passes, weakened ones fail where they break") {
  Cfa cfa = counter();
  ExprManager& em = *cfa.expr_manager();
  const Term X = em.var(0);
  const Term good = em.and_(em.le(em.int_val(0), X), em.le(X, em.int_val(10)));
  auto ok = check_certificate(cfa, counter_certificate(cfa, good));
  CHECK_MESSAGE(ok.valid, ok.failure);
  CHECK(ok.points == 4);

  // x <= 9 at the head: the back edge B -> H (x := x + 1 from x = 9) leaves it.
  const Term tight = em.and_(em.le(em.int_val(0), X), em.le(X, em.int_val(9)));
  auto bad = check_certificate(cfa, counter_certificate(cfa, tight));
  CHECK_FALSE(bad.valid);
  CHECK(bad.kind == "consecution");
  REQUIRE(bad.from);
  CHECK(cfa.name(*bad.from) == "B");
  CHECK(cfa.name(*bad.to) == "H");
  CHECK(bad.failure.find("B -> H") != std::string::npos);

  // Initiation: the initial location must allow every state.
  Certificate init = counter_certificate(cfa, good);
  init.disjuncts[loc(cfa, "L0")] = {em.eq(X, em.int_val(0))};
  auto bi = check_certificate(cfa, init);
  CHECK_FALSE(bi.valid);
  CHECK(bi.kind == "initiation");

  // Safety: an invariant at the error location that is not false.
  Certificate err = counter_certificate(cfa, good);
  err.disjuncts[loc(cfa, "ERR")] = {em.gt(X, em.int_val(10))};
  auto be = check_certificate(cfa, err);
  CHECK_FALSE(be.valid);
  CHECK(be.kind == "safety");

  // Applied to a SAFE result, a failed check makes it UNKNOWN with the edge named.
  VerificationResult r;
  r.verdict = Verdict::Safe;
  certify_safe(cfa, counter_certificate(cfa, tight), r);
  CHECK(r.verdict == Verdict::Unknown);
  CHECK_FALSE(r.certified);
  CHECK(r.reason.find("certificate check failed at edge B -> H") != std::string::npos);
}

TEST_CASE("certificate: invariants at some points only are checked block by block") {
  Cfa cfa = counter();
  ExprManager& em = *cfa.expr_manager();
  const Term X = em.var(0);
  Certificate c = at_points(cfa, {"L0", "H", "ERR"});
  const Loc h = loc(cfa, "H");
  c.disjuncts[loc(cfa, "L0")] = {em.true_()};
  c.disjuncts[h] = {em.and_(em.le(em.int_val(0), X), em.le(X, em.int_val(10)))};
  auto ok = check_certificate(cfa, c);
  CHECK_MESSAGE(ok.valid, ok.failure);
  // Too weak at the head: the block H -> ERR (x >= 10 and x > 10) is reachable.
  c.disjuncts[h] = {em.le(em.int_val(0), X)};
  auto bad = check_certificate(cfa, c);
  CHECK_FALSE(bad.valid);
  REQUIRE(bad.from);
  CHECK(cfa.name(*bad.from) == "H");
  CHECK(cfa.name(*bad.to) == "ERR");
}

TEST_CASE("certificate: a partial certificate that leaves the loop head out is rejected") {
  // Points at L0, B (in the loop body, with its true invariant 0 <= x < 10) and ERR, but
  // not at the loop head H: the blocks are loop-free only if the checker cuts the loop at
  // H, where the certificate says nothing, so H must count as true, and a block from H
  // fails (H -> B: x < 10 does not give 0 <= x; H -> X -> ERR: x > 10 is possible). A
  // checker that followed blocks from the given points only would accept an invariant
  // that never mentions the loop head.
  Cfa cfa = counter();
  ExprManager& em = *cfa.expr_manager();
  const Term X = em.var(0);
  Certificate c = at_points(cfa, {"L0", "B", "ERR"});
  c.disjuncts[loc(cfa, "L0")] = {em.true_()};
  c.disjuncts[loc(cfa, "B")] = {em.and_(em.le(em.int_val(0), X), em.lt(X, em.int_val(10)))};
  const CertificateCheck bad = check_certificate(cfa, c);
  CHECK_FALSE(bad.valid);
  CHECK(bad.kind == "consecution");
  REQUIRE(bad.from);
  REQUIRE(bad.to);
  CHECK(cfa.name(*bad.from) == "H");
  CHECK((cfa.name(*bad.to) == "B" || cfa.name(*bad.to) == "ERR"));
  // The same with the head's invariant added is a proof.
  c.point[loc(cfa, "H")] = true;
  c.disjuncts[loc(cfa, "H")] = {em.and_(em.le(em.int_val(0), X), em.le(X, em.int_val(10)))};
  const CertificateCheck ok = check_certificate(cfa, c);
  CHECK_MESSAGE(ok.valid, ok.failure);
}

TEST_CASE("certificate: read off the ARG of explicit, predicate, ABE and product CEGAR") {
  for (const char* name : {"count_to_ten_safe", "nested_loops_safe", "pred_disjunction_safe",
                           "paper_fig1_safe", "bool_flags_safe"}) {
    CAPTURE(name);
    Cfa cfa = model(name);
    auto [pc, cpc] = run_certified(cfa, PredCart(cfa), PredicateRefiner(cfa));
    REQUIRE(pc.verdict == Verdict::Safe);
    REQUIRE(cpc);
    CHECK_MESSAGE(cpc->check.valid, cpc->check.failure);
    CHECK(pc.certified);
    CHECK(cpc->check.points > 0);
    CHECK(pc.stats.extra.contains("certificate time s"));

    using ExplPred = ProductDomain<Expl, Pred>;
    auto [ep, cep] = run_certified(cfa, ExplPred(Expl(cfa), Pred(cfa)),
                                   ProductRefiner<ExplicitRefiner, PredicateRefiner>(cfa));
    REQUIRE(ep.verdict == Verdict::Safe);
    CHECK_MESSAGE(cep->check.valid, cep->check.failure);

    AbeOptions ao;
    auto [ab, cab] = run_certified(cfa, PredAbe(cfa, ao), BlockRefiner(cfa));
    REQUIRE(ab.verdict == Verdict::Safe);
    CHECK_MESSAGE(cab->check.valid, cab->check.failure);
    // ABE's certificate has invariants at its abstraction points only.
    std::size_t points = 0;
    for (bool p : cab->certificate.point) points += p ? 1 : 0;
    CHECK(points < cfa.num_locations());
  }
}

TEST_CASE("certificate: dropping one disjunct of an ARG certificate is caught at an edge into it") {
  Cfa cfa = model("count_to_ten_safe");
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  REQUIRE(c->check.valid);
  // A location (not the initial one) with several explicit states: drop the first.
  const std::optional<Loc> victim = with_several_disjuncts(cfa, c->certificate);
  REQUIRE(victim);
  Certificate broken = c->certificate;
  broken.disjuncts[*victim].erase(broken.disjuncts[*victim].begin());
  auto b = check_certificate(cfa, broken);
  CHECK_FALSE(b.valid);
  CHECK(b.kind == "consecution");
  REQUIRE(b.to);
  CHECK(*b.to == *victim);
}

TEST_CASE("certificate: the ARG's successor hints give one small query per disjunct and edge") {
  Cfa cfa = model("count_to_ten_safe");
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  REQUIRE(c->check.valid);
  const Certificate& cert = c->certificate;
  REQUIRE(cert.successors.size() == cfa.num_locations());
  // A SAFE ARG is complete: every disjunct has a hint along every out-edge.
  std::size_t steps = 0;
  for (Loc l = 0; l < cfa.num_locations(); ++l) {
    REQUIRE(cert.successors[l].size() == cert.disjuncts[l].size());
    for (const auto& per_edge : cert.successors[l])
      for (const auto& h : per_edge) {
        CHECK(h.has_value());
        ++steps;
      }
  }
  REQUIRE(steps > 0);
  // By the solver (explicit disjuncts are otherwise evaluated, see below): initiation,
  // safety and at most one query per step, no fallback to whole invariants.
  const auto solved = check_certificate(cfa, cert, {}, {.bindings = BindingCheck::Solver});
  CHECK_MESSAGE(solved.valid, solved.failure);
  CHECK(solved.evaluated == 0);
  CHECK(solved.queries <= steps + 2);

  // Wrong hints (every step sent to the target's first disjunct) only cost queries.
  Certificate wrong = cert;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (auto& per_edge : wrong.successors[l])
      for (auto& h : per_edge)
        if (h) *h = {0};
  const auto w = check_certificate(cfa, wrong, {}, {.bindings = BindingCheck::Solver});
  CHECK_MESSAGE(w.valid, w.failure);
  CHECK(w.queries > solved.queries);
  // By evaluation, wrong hints cost nothing: the lookup finds the right disjunct.
  const auto we = check_certificate(cfa, wrong);
  CHECK_MESSAGE(we.valid, we.failure);
  CHECK(we.queries == 2);

  // Hints out of range are ignored; the same certificate without hints is as valid.
  Certificate junk = cert;
  for (auto& per_disjunct : junk.successors)
    for (auto& per_edge : per_disjunct)
      for (auto& h : per_edge) h = std::vector<std::uint32_t>{1u << 30};
  CHECK(check_certificate(cfa, junk).valid);
  Certificate none = cert;
  none.successors.clear();
  CHECK(check_certificate(cfa, none).valid);

  // Hints do not hide a dropped disjunct: the step into it fails and so does the whole
  // invariant, whichever disjunct the hint names.
  const std::optional<Loc> victim = with_several_disjuncts(cfa, cert);
  REQUIRE(victim);
  Certificate broken = cert;
  broken.disjuncts[*victim].pop_back();
  const auto b = check_certificate(cfa, broken);
  CHECK_FALSE(b.valid);
  CHECK(b.kind == "consecution");
}

// Consecution of explicit disjuncts by evaluation and lookup.
TEST_CASE("certificate: explicit disjuncts are checked by evaluation, with no solver query") {
  Cfa cfa = model("count_to_ten_safe");
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  CHECK_MESSAGE(c->check.valid, c->check.failure);
  // Only initiation and safety ask the solver; every step is evaluated.
  CHECK(c->check.queries == 2);
  CHECK(c->check.evaluated > 0);
  CHECK(r.stats.extra.at("certificate evaluated steps") == doctest::Approx(c->check.evaluated));
  // Without hints the lookup finds the successors by hashing alone.
  Certificate none = c->certificate;
  none.successors.clear();
  const auto n = check_certificate(cfa, none);
  CHECK_MESSAGE(n.valid, n.failure);
  CHECK(n.evaluated == c->check.evaluated);
  CHECK(n.queries == 2);

  // A thousand iterations: still two queries, the steps grow with the loop.
  Cfa big = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/product/counter_1000_safe.cfa");
  auto [rb, cb] = run_certified(big, Expl(big), ExplicitRefiner(big));
  REQUIRE(rb.verdict == Verdict::Safe);
  REQUIRE(cb);
  CHECK_MESSAGE(cb->check.valid, cb->check.failure);
  CHECK(cb->check.queries == 2);
  CHECK(cb->check.evaluated >= 2000);
}

TEST_CASE("certificate: a wrong explicit disjunct is rejected when the fast path is taken") {
  Cfa cfa = model("count_to_ten_safe");
  ExprManager& em = *cfa.expr_manager();
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  const std::optional<Loc> victim = with_several_disjuncts(cfa, c->certificate);
  REQUIRE(victim);
  // Shift every value of the victim's first disjunct by 100: the state it stood for is
  // no longer in the invariant, and the step into it must fail.
  Certificate broken = c->certificate;
  Term& d = broken.disjuncts[*victim].front();
  const auto b = as_bindings(d);
  REQUIRE(b);
  REQUIRE_FALSE(b->bound.empty());
  std::vector<Term> lits;
  for (const auto& [x, v] : b->bound)
    lits.push_back(em.var(x).is_bool() ? (v != 0 ? em.var(x) : em.not_(em.var(x)))
                                       : em.eq(em.var(x), em.int_val(v + 100)));
  d = em.conj(lits);
  const auto k = check_certificate(cfa, broken);
  CHECK_FALSE(k.valid);
  CHECK(k.kind == "consecution");
  CHECK(k.evaluated > 0);  // the other steps went the fast way
  // The solver-only check agrees.
  const auto s = check_certificate(cfa, broken, {}, {.bindings = BindingCheck::Solver});
  CHECK_FALSE(s.valid);
  CHECK(s.kind == "consecution");
}

TEST_CASE("certificate: evaluation over-approximates what it cannot evaluate") {
  // x := 0; y := nondet; if (y > 0) x := 1; error if x > 1. The explicit disjuncts bind x
  // only: the assume on y cannot be evaluated and the havoc of y binds nothing.
  CfaBuilder bld;
  auto& e = bld.exprs();
  const VarId x = bld.int_var("x");
  const VarId y = bld.int_var("y");
  const Term X = e.var(x), Y = e.var(y);
  bld.edge("L0", "L1", Assign{x, e.int_val(0)});
  bld.edge("L1", "L2", Havoc{y});
  bld.edge("L2", "L3", Assume{e.gt(Y, e.int_val(0))});
  bld.edge("L2", "L4", Assume{e.le(Y, e.int_val(0))});
  bld.edge("L3", "L4", Assign{x, e.int_val(1)});
  bld.edge("L4", "ERR", Assume{e.gt(X, e.int_val(1))});
  bld.initial("L0");
  bld.error("ERR");
  Cfa cfa = std::move(bld).build();
  ExprManager& em = *cfa.expr_manager();
  Certificate c;
  c.point.assign(cfa.num_locations(), true);
  c.disjuncts.assign(cfa.num_locations(), {});
  c.disjuncts[loc(cfa, "L0")] = {em.true_()};
  for (const char* l : {"L1", "L2", "L3"}) c.disjuncts[loc(cfa, l)] = {em.eq(X, em.int_val(0))};
  c.disjuncts[loc(cfa, "L4")] = {em.eq(X, em.int_val(0)), em.eq(X, em.int_val(1))};
  const auto ok = check_certificate(cfa, c);
  CHECK_MESSAGE(ok.valid, ok.failure);
  CHECK(ok.evaluated >= 4);
  // L4 without x = 1: the step L3 -> L4 has no match, the solver refutes it.
  Certificate bad = c;
  bad.disjuncts[loc(cfa, "L4")] = {em.eq(X, em.int_val(0))};
  const auto b = check_certificate(cfa, bad);
  CHECK_FALSE(b.valid);
  REQUIRE(b.from);
  CHECK(cfa.name(*b.from) == "L3");
  // An assume x = v on an unbound x binds it, as the explicit analysis does: L2 -> L5
  // (assume y = 7) reaches the disjunct x = 0 and y = 7 by evaluation.
  {
    CfaBuilder b2;
    auto& e2 = b2.exprs();
    const VarId x2 = b2.int_var("x");
    const VarId y2 = b2.int_var("y");
    b2.edge("L0", "L1", Assign{x2, e2.int_val(0)});
    b2.edge("L1", "L2", Havoc{y2});
    b2.edge("L2", "L3", Assume{e2.eq(e2.var(y2), e2.int_val(7))});
    b2.edge("L3", "ERR", Assume{e2.neq(e2.var(y2), e2.int_val(7))});
    b2.initial("L0");
    b2.error("ERR");
    Cfa c2 = std::move(b2).build();
    ExprManager& m2 = *c2.expr_manager();
    Certificate k2;
    k2.point.assign(c2.num_locations(), true);
    k2.disjuncts.assign(c2.num_locations(), {});
    k2.disjuncts[loc(c2, "L0")] = {m2.true_()};
    for (const char* l : {"L1", "L2"})
      k2.disjuncts[loc(c2, l)] = {m2.eq(m2.var(x2), m2.int_val(0))};
    k2.disjuncts[loc(c2, "L3")] = {
        m2.and_(m2.eq(m2.var(x2), m2.int_val(0)), m2.eq(m2.var(y2), m2.int_val(7)))};
    const auto v2 = check_certificate(c2, k2);
    CHECK_MESSAGE(v2.valid, v2.failure);
    CHECK(v2.queries == 2);
    // y = 8 at L3 is wrong, and evaluation does not hide it.
    k2.disjuncts[loc(c2, "L3")] = {
        m2.and_(m2.eq(m2.var(x2), m2.int_val(0)), m2.eq(m2.var(y2), m2.int_val(8)))};
    CHECK_FALSE(check_certificate(c2, k2).valid);
  }
  // A disjunct that constrains y is not a conjunction of bindings: the solver decides.
  Certificate rel = c;
  rel.disjuncts[loc(cfa, "L3")] = {em.and_(em.eq(X, em.int_val(0)), em.gt(Y, em.int_val(0)))};
  const auto rr = check_certificate(cfa, rel);
  CHECK_MESSAGE(rr.valid, rr.failure);
  CHECK(rr.queries > 2);
}

TEST_CASE("certificate: a check the time limit ends is unfinished, and SAFE becomes UNKNOWN") {
  Cfa cfa = model("count_to_ten_safe");
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  Cvc5Options late;
  late.deadline.at = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  VerificationResult safe;
  safe.verdict = Verdict::Safe;
  const auto k = certify_safe(cfa, c->certificate, safe, late);
  CHECK_FALSE(k.valid);
  CHECK(k.unfinished);
  CHECK(k.undecided);
  CHECK(safe.verdict == Verdict::Unknown);
  CHECK(safe.reason.find("certificate check not finished") != std::string::npos);
  CHECK(safe.stats.extra.contains("certificate time s"));
}

TEST_CASE("certificate: a check the memory limit ends is unfinished, with the reason") {
  Cfa cfa = model("count_to_ten_safe");
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  Limits tiny;
  tiny.memory_limit_mb = 1;  // below any process's resident memory
  Cvc5Options o;
  o.deadline = Deadline::of(tiny);
  VerificationResult safe;
  safe.verdict = Verdict::Safe;
  const auto k = certify_safe(cfa, c->certificate, safe, o);
  CHECK_FALSE(k.valid);
  CHECK(k.unfinished);
  CHECK(safe.verdict == Verdict::Unknown);
  CHECK(safe.reason.find("certificate check not finished: memory limit of 1 MB reached") !=
        std::string::npos);
}

TEST_CASE("certificate: the box hull of explicit disjuncts, tried first, proves a counter") {
  Cfa big = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/product/counter_1000_safe.cfa");
  auto [r, c] = run_certified(big, Expl(big), ExplicitRefiner(big));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  const auto full = check_certificate(big, c->certificate);
  REQUIRE(full.valid);
  const auto hull = check_certificate(big, c->certificate, {}, {.candidate = Candidate::Hull});
  CHECK_MESSAGE(hull.valid, hull.failure);
  REQUIRE(hull.candidate.size() == big.num_locations());
  CHECK(hull.candidate_queries > 0);
  CHECK(hull.evaluated == 0);  // the certificate itself was not needed
  // The candidate is one formula per location, and it is an invariant on its own.
  Certificate as_cert = c->certificate;
  for (Loc l = 0; l < big.num_locations(); ++l) as_cert.disjuncts[l] = {hull.candidate[l]};
  as_cert.successors.clear();
  CHECK(check_certificate(big, as_cert).valid);
}

TEST_CASE("certificate: a hull that is not inductive falls back to the full certificate") {
  // x := 0; loop { x := 10 - x }; error if x = 5. The states are x = 0 and x = 10: their
  // hull 0 <= x <= 10 admits x = 5, so the candidate fails and the disjunction decides.
  CfaBuilder bld;
  auto& e = bld.exprs();
  const VarId x = bld.int_var("x");
  const Term X = e.var(x);
  bld.edge("L0", "H", Assign{x, e.int_val(0)});
  bld.edge("H", "B", Assume{e.neq(X, e.int_val(5))});
  bld.edge("B", "H", Assign{x, e.sub(e.int_val(10), X)});
  bld.edge("H", "ERR", Assume{e.eq(X, e.int_val(5))});
  bld.initial("L0");
  bld.error("ERR");
  Cfa cfa = std::move(bld).build();
  auto [r, c] = run_certified(cfa, Expl(cfa), ExplicitRefiner(cfa));
  REQUIRE(r.verdict == Verdict::Safe);
  REQUIRE(c);
  REQUIRE(c->certificate.disjuncts[loc(cfa, "H")].size() == 2);
  const auto k = check_certificate(cfa, c->certificate, {}, {.candidate = Candidate::Hull});
  CHECK_MESSAGE(k.valid, k.failure);
  CHECK(k.candidate.empty());      // not proved by the hull
  CHECK(k.candidate_queries > 0);  // which was tried
  CHECK(k.evaluated > 0);          // the full certificate decided
  // And a broken certificate stays rejected when the candidate is tried first.
  Certificate broken = c->certificate;
  broken.disjuncts[loc(cfa, "H")].pop_back();
  const auto b = check_certificate(cfa, broken, {}, {.candidate = Candidate::Hull});
  CHECK_FALSE(b.valid);
}

}  // namespace certificate_test
