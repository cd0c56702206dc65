// precis/cfa/cleanup.hpp and precis/cfa/variable_classification.hpp on hand-built
// automata and on translated C.

#include <doctest/doctest.h>

#include "helpers.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/cfa/cleanup.hpp"
#include "precis/cfa/variable_classification.hpp"

namespace cleanup_test {

using precis::test::has_op;

TEST_CASE("cleanup: unreachable locations + assume true/false + skip chains") {
  precis::CfaBuilder b;
  auto x = b.int_var("x");
  auto& e = b.exprs();
  b.edge("A", "B", precis::Skip{});
  b.edge("B", "C", precis::Assign{x, e.int_val(1)});
  b.edge("C", "D", precis::Assume{e.true_()});
  b.edge("D", "ERR", precis::Assume{e.gt(e.var(x), e.int_val(0))});
  b.edge("C", "E", precis::Assume{e.false_()});
  b.edge("E", "ERR", precis::Skip{});
  b.edge("U", "ERR", precis::Skip{});  // unreachable
  b.edge("D", "END", precis::Skip{});
  b.initial("A");
  b.error("ERR");
  b.final_("END");
  precis::Cfa cfa = std::move(b).build();
  precis::Cfa c = precis::cleanup(cfa);
  CHECK(c.num_locations() == 4);  // A (with B merged), C/D, ERR, END
  CHECK(c.num_edges() == 3);
  CHECK(c.name(c.initial_location()) == "A");
  CHECK(c.name(*c.error_location()) == "ERR");
  CHECK(c.name(*c.final_location()) == "END");
  CHECK(has_op(c, "x := 1"));
  CHECK(has_op(c, "assume x > 0"));
  CHECK(has_op(c, "skip"));  // D -> END: a skip into the final location stays
  CHECK(&c.exprs() == &cfa.exprs());

  precis::CleanupOptions prune;
  prune.prune_not_reaching_error = true;
  precis::Cfa p = precis::cleanup(cfa, prune);
  CHECK_FALSE(has_op(p, "skip"));  // the edge to END is gone, END stays as a location
  CHECK(p.final_location().has_value());
}

TEST_CASE("cleanup: the restricted large-block encoding composes straight-line pieces") {
  precis::CfaBuilder b;
  auto x = b.int_var("x");
  auto y = b.int_var("y");
  auto& e = b.exprs();
  b.edge("A", "B", precis::Havoc{x});
  b.edge("B", "C", precis::Assign{x, e.int_val(2)});
  b.edge("C", "D", precis::Assign{x, e.add(e.var(x), e.int_val(1))});
  b.edge("D", "E", precis::Assume{e.gt(e.var(x), e.int_val(0))});
  b.edge("E", "F", precis::Assume{e.lt(e.var(x), e.int_val(5))});
  b.edge("F", "G", precis::Assign{y, e.var(x)});
  b.edge("G", "ERR", precis::Skip{});
  b.initial("A");
  b.error("ERR");
  precis::Cfa cfa = std::move(b).build();
  precis::CleanupOptions o;
  o.large_block = true;
  precis::Cfa c = precis::cleanup(cfa, o);
  CAPTURE(precis::test::dump(c));
  CHECK(c.num_edges() == 3);
  CHECK(has_op(c, "x := 2 + 1"));
  CHECK(has_op(c, "assume x > 0 and x < 5"));
  CHECK(has_op(c, "y := x"));
}

TEST_CASE("variable classification") {
  auto cfa = precis::test::tr(R"(
int __VERIFIER_nondet_int(); _Bool __VERIFIER_nondet_bool(); void reach_error();
int main() {
  int flag = 0, state = 1, copy, i, n = __VERIFIER_nondet_int(), sum = 0;
  _Bool b = __VERIFIER_nondet_bool();
  int input = __VERIFIER_nondet_int();
  if (input == 5) state = 3;
  copy = state;
  if (b) flag = 1;
  for (i = 0; i < n; i++) sum = sum + 2;
  if (flag != 0 && copy == 3 && sum < 0) reach_error();
  return 0;
}
)");
  auto vc = precis::classify_variables(cfa);
  auto id = [&](const char* n) { return cfa.exprs().find(n)->id; };
  CHECK(vc.is_boolean(id("main::flag")));
  CHECK(vc.is_boolean(id("main::b")));
  CHECK(vc.is_equality(id("main::state")));
  CHECK(vc.is_equality(id("main::copy")));
  CHECK(vc.is_equality(id("main::input")));
  CHECK(vc.is_arithmetic(id("main::i")));
  CHECK(vc.is_arithmetic(id("main::sum")));
  CHECK(vc.is_arithmetic(id("main::n")));
  CHECK(vc.is_loop_counter(id("main::i")));
  CHECK_FALSE(vc.is_loop_counter(id("main::sum")));
  CHECK_FALSE(vc.is_loop_counter(id("main::state")));
  CHECK(vc.size() == cfa.exprs().num_vars());
}

}  // namespace cleanup_test
