// The complete-run certificate (certify/complete_run.hpp): a program without inputs and
// choices has one execution; the checker runs it and refuses any input, any choice, any
// read of an initial value, the error location and a longer execution than claimed.
#include <doctest/doctest.h>

#include <string>

#include "precis/certify/complete_run.hpp"
#include "precis/cfa/builder.hpp"
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

TEST_CASE("complete run: inputs, choices and initial values are refused") {
  // A havoc is an input.
  CHECK(fails_with(check_complete_run(counter("10", "havoc x"), {1000}), "havoc x"));
  // A value the initial state gives, even where every value is safe.
  CHECK(fails_with(check_complete_run(counter("10", "x := u"), {1000}), "no step wrote"));
  CHECK(fails_with(check_complete_run(counter("10", "assume u >= 0 or u < 0  x := 0"), {1000}),
                   "condition depends on a value no step wrote"));
  // Two enabled edges: a choice.
  CHECK(fails_with(
      check_complete_run(counter("10", "x := 0", "    L1 -> END { assume x = 5 }\n"), {1000}),
      "two edges are enabled"));
}

TEST_CASE("complete run: an array read before any step wrote it is an input") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId a = b.var("a", Type::Array);
  const VarId c = b.var("c", Type::Array);
  const VarId x = b.int_var("x");
  // c := store(a, 1, 1): the cells other than 1 are a's, which no step wrote.
  b.edge(b.location("L0"), b.location("L1"),
         Assign{c, e.store(e.var(a), e.int_val(1), e.int_val(1))});
  b.edge(b.location("L1"), b.location("L2"), Assign{x, e.select(e.var(c), e.int_val(1))});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();
  CHECK(fails_with(check_complete_run(cfa, {10}),
                   "array assignment depends on a value no step wrote"));
  // Reading the array itself.
  CfaBuilder b2;
  auto& e2 = b2.exprs();
  const VarId a2 = b2.var("a", Type::Array);
  const VarId x2 = b2.int_var("x");
  b2.edge(b2.location("L0"), b2.location("L1"), Assign{x2, e2.select(e2.var(a2), e2.int_val(0))});
  b2.initial("L0");
  b2.error("ERR");
  CHECK(fails_with(check_complete_run(std::move(b2).build(), {10}),
                   "assignment depends on a value no step wrote"));
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
