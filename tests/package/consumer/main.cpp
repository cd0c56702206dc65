// Builds a CFA with the builder and proves it safe with explicit-value CEGAR: the
// smallest program against the installed package.
#include <precis/precis.hpp>

#include <iostream>

int main() {
  precis::CfaBuilder b;
  auto& e = b.exprs();
  precis::VarId x = b.int_var("x");
  b.edge("L0", "L1", precis::Assign{x, e.int_val(0)});
  b.edge("L1", "L1", precis::Assign{x, e.add(e.var(x), e.int_val(2))});
  b.edge("L1", "ERR", precis::Assume{e.eq(e.mod(e.var(x), e.int_val(2)), e.int_val(1))});
  b.initial("L0");
  b.error("ERR");
  precis::Cfa cfa = std::move(b).build();
  // x is even forever, but explicit values cannot enumerate it: the bound says UNKNOWN.
  precis::CegarOptions o;
  o.max_arg_nodes = 1000;
  auto r1 = precis::CEGAR<precis::Expl>(cfa, o).run();
  std::cout << precis::to_string(r1.verdict) << ": " << r1.reason << '\n';

  precis::CfaBuilder c;
  auto& f = c.exprs();
  precis::VarId y = c.int_var("y");
  c.edge("A", "B", precis::Assign{y, f.int_val(1)});
  c.edge("B", "ERR", precis::Assume{f.eq(f.var(y), f.int_val(2))});
  c.initial("A");
  c.error("ERR");
  precis::Cfa cfa2 = std::move(c).build();
  auto r2 = precis::CEGAR<precis::Expl>(cfa2).run();
  std::cout << precis::to_string(r2.verdict) << '\n';
  return r2.verdict == precis::Verdict::Safe && r1.verdict == precis::Verdict::Unknown ? 0 : 1;
}
