// The explicit-value analysis with the precise counterexample check (section III-F).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../support/certified.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"

using namespace precis;

namespace explicit_smt_test {

namespace {
using ExplSmt = CEGAR<Expl, ExplicitSmtRefiner>;
}

TEST_CASE("the SMT check finds inputs the explicit search cannot") {
  // x + y = 20 with y > 10 and x < 5: a system, not one variable at a time.
  CfaBuilder b;
  auto& e = b.exprs();
  VarId x = b.int_var("x"), y = b.int_var("y");
  Term X = e.var(x), Y = e.var(y);
  b.edge("L0", "L1", Havoc{x});
  b.edge("L1", "L2", Assume{e.gt(Y, e.int_val(10))});
  b.edge("L2", "L3", Assume{e.eq(e.add(X, Y), e.int_val(20))});
  b.edge("L3", "ERR", Assume{e.lt(X, e.int_val(5))});
  b.initial("L0");
  b.error("ERR");
  Cfa cfa = std::move(b).build();

  auto plain = CEGAR<Expl>(cfa).run();
  CHECK(plain.verdict == Verdict::Unknown);

  auto r = ExplSmt(cfa).run();
  REQUIRE(r.verdict == Verdict::Unsafe);
  REQUIRE(r.counterexample);
  const std::vector<BigInt> v = r.counterexample->final_values();
  CHECK(v[y] > 10);
  CHECK(v[x] + v[y] == 20);
  CHECK(v[x] < 5);
  CHECK(r.stats.extra.at("SMT path checks") >= 1);
}

TEST_CASE("an explicit-feasible path the solver refutes is not reported as a bug") {
  const std::string dir = std::string(PRECIS_TASKS) + "/theta/";
  Cfa cfa = read_cfa_file(dir + "locking.cfa");
  auto r = ExplSmt(cfa).run();
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("expl+pred") != std::string::npos);
}

TEST_CASE("explicit + SMT check on the Theta models and tests/models: never a wrong verdict") {
  for (const std::string& dir :
       {std::string(PRECIS_TASKS) + "/theta/", std::string(PRECIS_TEST_MODELS) + "/"}) {
    for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
      if (m.verdict == "NONE") continue;
      CAPTURE(m.name);
      Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
      CegarOptions o;
      o.time_limit_s = 0.5;
      ExplSmt cegar(cfa, o);
      auto r = testing::certified(cfa, cegar, cegar.run());
      if (r.verdict == Verdict::Unknown) {
        // Only models that need predicates may stay undecided.
        CHECK((m.extra.find("needs predicates") != std::string::npos || m.name == "locking"));
        continue;
      }
      CHECK(r.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
    }
  }
}

}  // namespace explicit_smt_test
