// Abstract interpretation with widening over Box and Boxes, and the solver-checked
// certificate.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/certify/invariant_check.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace abstract_interpreter_test {

namespace {

Cfa box_model(const std::string& name) {
  return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/box/" + name + ".cfa");
}

BoxDomain with_thresholds(const Cfa& cfa) {
  Thresholds th;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (auto e : cfa.out_edges(l)) add_constants(th, cfa.operation(e));
  return BoxDomain(std::move(th));
}

template <class D>
struct Outcome {
  AbstractInterpretation<typename D::element> ai;
  bool error_excluded = false;
  InvariantCheck certificate;
};

template <class D>
Outcome<D> interpret(const Cfa& cfa, D d, AbstractInterpreterOptions o = {}) {
  AbstractInterpreter<D> a(cfa, d, o);
  Outcome<D> out{a.run(), false, {}};
  REQUIRE(out.ai.complete);
  out.error_excluded = d.is_bottom(out.ai.values[*cfa.error_location()]);
  ExprManager& em = *cfa.expr_manager();
  std::vector<Term> inv;
  for (const auto& v : out.ai.values) inv.push_back(to_formula(v, em));
  out.certificate = check_invariant(cfa, [&](Loc l) { return inv[l]; });
  return out;
}

Loc loc(const Cfa& cfa, const std::string& name) {
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (cfa.name(l) == name) return l;
  FAIL("no location " << name);
  return 0;
}

}  // namespace

TEST_CASE("ai-box: a counting loop to 10^6 in a handful of iterations, certified") {
  Cfa cfa = box_model("count_1e6_safe");
  auto r = interpret(cfa, with_thresholds(cfa));
  CHECK(r.error_excluded);
  CHECK(r.certificate.inductive);
  CHECK(r.certificate.failure.empty());
  // Widening to the threshold 10^6, not 10^6 iterations.
  CHECK(r.ai.updates < 50);
  CHECK(r.ai.widenings >= 1);
  const Box& head = r.ai.values[loc(cfa, "L1")];
  const VarId x = cfa.exprs().find("x")->id;
  CHECK(head.get(x) == Interval(0, 1000000));

  // Without thresholds the head widens to [0, +oo) and narrowing recovers the bound
  // from the loop guard: still proved.
  auto plain = interpret(cfa, BoxDomain{});
  CHECK(plain.error_excluded);
  CHECK(plain.certificate.inductive);
}

TEST_CASE("ai-box on a range invariant 0 <= i <= n <= 100") {
  Cfa cfa = box_model("range_loop_safe");
  auto r = interpret(cfa, with_thresholds(cfa));
  CHECK(r.error_excluded);
  CHECK(r.certificate.inductive);
}

TEST_CASE("a disjunctive invariant: Boxes proves it, Box does not") {
  Cfa cfa = box_model("disjunctive_safe");
  auto box = interpret(cfa, with_thresholds(cfa));
  CHECK_FALSE(box.error_excluded);
  auto boxes = interpret(cfa, BoxesDomain(with_thresholds(cfa)));
  CHECK(boxes.error_excluded);
  CHECK(boxes.certificate.inductive);
}

TEST_CASE("the certificate check rejects what is not an invariant") {
  Cfa cfa = box_model("count_1e6_safe");
  ExprManager& em = *cfa.expr_manager();
  const Term x = em.var(cfa.exprs().find("x")->id);
  const Loc l1 = loc(cfa, "L1");
  const Loc l2 = loc(cfa, "L2");
  const Loc l3 = loc(cfa, "L3");
  const Loc err = *cfa.error_location();
  // 0 <= x <= 999999 at the head is not preserved by the loop (x reaches 10^6).
  auto inv = [&](Term head) {
    return [&, head](Loc l) -> Term {
      if (l == err) return em.false_();
      if (l == l1) return head;
      if (l == l2) return em.and_(head, em.lt(x, em.int_val(1000000)));
      if (l == l3) return em.eq(x, em.int_val(1000000));
      return em.true_();
    };
  };
  auto weak =
      check_invariant(cfa, inv(em.and_(em.le(em.int_val(0), x), em.le(x, em.int_val(999999)))));
  CHECK_FALSE(weak.inductive);
  CHECK(weak.failure.find("consecution") != std::string::npos);
  auto right =
      check_invariant(cfa, inv(em.and_(em.le(em.int_val(0), x), em.le(x, em.int_val(1000000)))));
  CHECK(right.inductive);
  // An invariant that admits the error location is not a certificate.
  auto unsafe = check_invariant(cfa, [&](Loc) { return em.true_(); });
  CHECK_FALSE(unsafe.inductive);
  CHECK(unsafe.failure.find("safety") != std::string::npos);
}

TEST_CASE("consecution queries cut to the edge's cone prove and refute as the full ones") {
  // L0 -> L1 -> L2 -> L3: assume x > 5 and y > 0, then y := y - 1, then z := x + y. Conjuncts over
  // variables the edge does not write hold by the frame rule; the rest is asked over the
  // premises that share variables with it.
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x"), y = b.int_var("y"), z = b.int_var("z");
  const Term X = b.ref(x), Y = b.ref(y), Z = b.ref(z);
  b.edge("L0", "L1", Assume{e.and_(e.gt(X, e.int_val(5)), e.gt(Y, e.int_val(0)))});
  b.edge("L1", "L2", Assign{y, e.sub(Y, e.int_val(1))});
  b.edge("L2", "L3", Assign{z, e.add(X, Y)});
  b.initial("L0");
  const Cfa cfa = std::move(b).build();
  ExprManager& em = *cfa.expr_manager();
  const auto ge = [&](Term t, std::int64_t c) { return em.ge(t, em.int_val(c)); };
  const Loc l1 = loc(cfa, "L1"), l2 = loc(cfa, "L2"), l3 = loc(cfa, "L3");
  const auto check = [&](Term at1, Term at2, Term at3) {
    return check_invariant(
        cfa,
        [&](Loc l) {
          if (l == l1) return at1;
          if (l == l2) return at2;
          if (l == l3) return at3;
          return em.true_();
        },
        {}, {}, false);
  };
  // Inductive: z's bound needs x's and y's premises (the cone), y's needs y's.
  const Term pre = em.and_(ge(X, 6), ge(Y, 1));
  CHECK(check(pre, em.and_(ge(X, 6), ge(Y, 0)), em.and_(ge(X, 6), ge(Z, 6))).inductive);
  // y is written: its old bound is not carried over by the frame rule.
  const InvariantCheck written = check(pre, em.and_(ge(X, 6), ge(Y, 1)), ge(X, 6));
  CHECK_FALSE(written.inductive);
  CHECK(written.from == l1);
  // z's bound needs the premises over x and y, in the cone through the edge's right side;
  // one more than they give is refuted on that edge.
  CHECK(check(pre, em.and_(ge(X, 6), ge(Y, 0)), ge(Z, 6)).inductive);
  const InvariantCheck too_strong = check(pre, em.and_(ge(X, 6), ge(Y, 0)), ge(Z, 7));
  CHECK_FALSE(too_strong.inductive);
  CHECK(too_strong.from == l2);
}

}  // namespace abstract_interpreter_test
