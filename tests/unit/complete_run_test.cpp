// The complete-run certificate (certify/complete_run.hpp): a program without inputs and
// choices has one execution; the checker runs it and refuses any choice, any read of an
// initial value or a havoc's value, a bound marker, the error location and a longer
// execution than claimed.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "precis/certify/complete_run.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace complete_run_test {

namespace {

// x := 0; while (x < n) x := x + 1; then END, or ERR when x < 0 (`guard` adds a
// condition on the loop edge, `init` replaces x := 0).
Cfa counter(const std::string& n, const std::string& init = "x := 0",
            const std::string& extra = "") {
  return parse_cfa(R"(
main process counter {
    var x : int
    var u : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { )" + init +
                       R"( }
    L1 -> L1 { assume x < )" +
                       n + R"(  x := x + 1 }
    L1 -> END { assume x >= )" +
                       n + R"( }
    L1 -> ERR { assume x < 0 }
)" + extra + "}\n",
                   "counter.cfa");
}

bool fails_with(const CompleteRunCheck& c, const std::string& what) {
  return !c.valid && c.failure.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("complete run: the one execution of a counter, with its exact length") {
  const Cfa cfa = counter("100");
  // x := 0, 100 iterations of two steps (the assume, the increment), the assume to END.
  const CompleteRunCheck c = check_complete_run(cfa, {1 + 2 * 100 + 1});
  CHECK(c.valid);
  CHECK(c.steps == 1 + 2 * 100 + 1);
  // A certificate that claims fewer steps than the execution takes is refused.
  CHECK(fails_with(check_complete_run(cfa, {2 * 100 + 1}), "more than 201 steps"));
}

TEST_CASE("complete run: the visitor sees every location of the execution with its values") {
  const Cfa cfa = counter("5", "havoc u  x := 0");
  const VarId x = cfa.exprs().find("x")->id;
  const VarId u = cfa.exprs().find("u")->id;
  Loc head = 0;
  while (cfa.name(head) != "L1") ++head;
  std::vector<std::int64_t> at_head;
  std::size_t visits = 0;
  bool u_without_value = true;
  const CompleteRunCheck c =
      check_complete_run(cfa, {100}, nullptr, [&](Loc l, const std::vector<OptBigInt>& v) {
        ++visits;
        if (l != head) return;
        REQUIRE(v[x].has_value());
        at_head.push_back(static_cast<std::int64_t>(*v[x]));
        u_without_value = u_without_value && !v[u].has_value();
      });
  CHECK(c.valid);
  // Once per location the execution comes to, its end (END) included: one more than
  // its edges.
  CHECK(visits == c.steps + 1);
  CHECK(at_head == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(u_without_value);  // the havoc's value is no value every execution shares
}

TEST_CASE("complete run: inputs and initial values are refused where they decide a branch") {
  // A havoc's value decides the loop's branches ...
  CHECK(fails_with(check_complete_run(counter("10", "havoc x"), {1000}),
                   "a condition has no value (it reads a value no step wrote, or divides by "
                   "zero) where another edge may be enabled"));
  CHECK(fails_with(check_complete_run(counter("10", "x := 0  havoc x"), {1000}),
                   "a condition has no value"));
  // ... and chooses nothing where no branch reads it (an uninitialized local assigned
  // later).
  const CompleteRunCheck unread =
      check_complete_run(counter("10", "havoc u  havoc x  x := 0"), {1000});
  CHECK(unread.valid);
  CHECK(unread.steps == 3 + 2 * 10 + 1);
  // A value the initial state gives, even where every value is safe.
  CHECK(
      fails_with(check_complete_run(counter("10", "x := u"), {1000}), "a condition has no value"));
  CHECK(fails_with(check_complete_run(counter("10", "x := u - u"), {1000}),
                   "a condition has no value"));
  // An assume on an input that is the only edge (a range check after a havoc): the
  // executions where it fails block there, the others go on along the same path.
  const CompleteRunCheck ranged =
      check_complete_run(counter("10", "havoc u  assume u >= 0 and u < 256  x := 0"), {1000});
  CHECK(ranged.valid);
  CHECK(ranged.steps == 3 + 2 * 10 + 1);
  // Two enabled edges: a choice.
  CHECK(fails_with(
      check_complete_run(counter("10", "x := 0", "    L1 -> END { assume x = 5 }\n"), {1000}),
      "two edges are enabled"));
}

TEST_CASE("complete run: an array cell no step wrote is an input; the written ones are not") {
  // c := store(a, 1, 1), then a branch on c[k]: cell 1 was written, the others are a's,
  // which no step wrote (an uninitialized array filled cell by cell).
  const auto branch_on = [](CfaBuilder& b, Term t) {
    auto& e = b.exprs();
    b.edge(b.location("L2"), b.location("ERR"), Assume{e.eq(t, e.int_val(0))});
    b.edge(b.location("L2"), b.location("END"), Assume{e.neq(t, e.int_val(0))});
    b.initial("L0");
    b.error("ERR");
  };
  const auto run = [&](int k) {
    CfaBuilder b;
    auto& e = b.exprs();
    const VarId a = b.var("a", Type::Array);
    const VarId c = b.var("c", Type::Array);
    b.edge(b.location("L0"), b.location("L1"),
           Assign{c, e.store(e.var(a), e.int_val(1), e.int_val(1))});
    b.edge(b.location("L1"), b.location("L2"), Skip{});
    branch_on(b, e.select(e.var(c), e.int_val(k)));
    return check_complete_run(std::move(b).build(), {10});
  };
  CHECK(run(1).valid);
  CHECK(fails_with(run(2), "a condition has no value"));
  // After a havoc of the array, even its written cells are inputs again.
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId a = b.var("a", Type::Array);
  b.edge(b.location("L0"), b.location("L1"), Assign{a, e.const_array(e.int_val(1))});
  b.edge(b.location("L1"), b.location("L2"), Havoc{a});
  branch_on(b, e.select(e.var(a), e.int_val(0)));
  CHECK(fails_with(check_complete_run(std::move(b).build(), {10}), "a condition has no value"));
  // Without the havoc the constant array's cells are known.
  CfaBuilder k;
  auto& ek = k.exprs();
  const VarId ak = k.var("a", Type::Array);
  k.edge(k.location("L0"), k.location("L1"), Assign{ak, ek.const_array(ek.int_val(1))});
  k.edge(k.location("L1"), k.location("L2"), Skip{});
  branch_on(k, ek.select(ek.var(ak), ek.int_val(0)));
  CHECK(check_complete_run(std::move(k).build(), {10}).valid);
}

TEST_CASE("complete run: a bound marker ends the translation, not the execution") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId marker = b.int_var(bound_marker_name("recursion deeper than 4"));
  b.edge(b.location("L0"), b.location("L1"), Assign{x, e.int_val(5)});
  b.edge(b.location("L1"), b.location("M"), Assume{e.gt(e.var(x), e.int_val(4))});
  b.edge(b.location("M"), b.location("END"), Havoc{marker});
  b.edge(b.location("L1"), b.location("END"), Assume{e.le(e.var(x), e.int_val(4))});
  b.initial("L0");
  b.error("ERR");
  CHECK(fails_with(check_complete_run(std::move(b).build(), {10}),
                   "a bound of the translation (__precis_bound_recursion_deeper_than_4)"));
}

TEST_CASE("complete run: arrays written by the run, and executions that block") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId a = b.var("a", Type::Array);
  const VarId x = b.int_var("x");
  b.edge(b.location("L0"), b.location("L1"), Assign{a, e.const_array(e.int_val(0))});
  b.edge(b.location("L1"), b.location("L2"),
         Assign{a, e.store(e.var(a), e.int_val(3), e.int_val(7))});
  b.edge(b.location("L2"), b.location("L3"), Assign{x, e.select(e.var(a), e.int_val(3))});
  // x = 7: the assume to ERR fails, and so does the one to L4: the execution blocks.
  b.edge(b.location("L3"), b.location("ERR"), Assume{e.neq(e.var(x), e.int_val(7))});
  b.edge(b.location("L3"), b.location("L4"), Assume{e.lt(e.var(x), e.int_val(0))});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();
  const CompleteRunCheck c = check_complete_run(cfa, {3});
  CHECK(c.valid);
  CHECK(c.steps == 3);
}

TEST_CASE("complete run: the error location and the time limit") {
  // Edges whose assumptions fail are no choice.
  const Cfa down = counter("10", "x := 0",
                           "    loc L5\n    L0 -> L5 { assume false }\n"
                           "    L1 -> L1 { assume false }\n");
  CHECK(check_complete_run(down, {1000}).valid);
  const Cfa err = parse_cfa(R"(
main process err {
    var x : int
    init loc L0
    loc L1
    error loc ERR
    L0 -> L1 { x := 3 }
    L1 -> L1 { assume x > -1  x := x - 1 }
    L1 -> ERR { assume x = -1 }
}
)",
                            "err.cfa");
  CHECK(fails_with(check_complete_run(err, {1000}), "reaches the error location"));
  // An execution too long for the limit ends the check, unfinished.
  Limits limits;
  limits.time_limit_s = 0.05;
  const CompleteRunCheck slow = check_complete_run(counter("1000000000"), {1U << 31}, &limits);
  CHECK_FALSE(slow.valid);
  CHECK(slow.unfinished);
  CHECK(slow.failure.find("not finished") != std::string::npos);
}

}  // namespace complete_run_test
