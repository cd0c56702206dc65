// Counterexamples beyond 64 bits: tests/models/big_input_unsafe.cfa
// reaches its error only with the havocked input x = 2^63 + 5. Every analysis that
// reports UNSAFE must give exactly that value, read from the solver's model and replayed
// over arbitrary-precision integers; the others must say UNKNOWN, never SAFE.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../support/counterexample_checks.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/expr/printer.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/report.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"

using namespace precis;

namespace big_int_replay_test {

namespace {

const BigInt expected_x = (BigInt(1) << 63) + 5;  // 9223372036854775813

Cfa big_model() { return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/big_input_unsafe.cfa"); }

VarId var(const Cfa& cfa, const char* name) {
  const Variable* v = cfa.exprs().find(name);
  REQUIRE(v != nullptr);
  return v->id;
}

// UNSAFE with x = 2^63 + 5 after the havoc and y = 5 at the end; the shared check
// replays the reported path and values on the concrete interpreter.
void check_big_counterexample(const Cfa& cfa, const VerificationResult& r) {
  CAPTURE(r.reason);
  REQUIRE(r.verdict == Verdict::Unsafe);
  testing::check_counterexample(cfa, r);
  const Counterexample& cex = *r.counterexample;
  const VarId x = var(cfa, "x"), y = var(cfa, "y");
  REQUIRE(cex.steps.size() == 4);
  CHECK(cex.steps[0].operation == "havoc x");
  CHECK(cex.values_after(0).at(x) == expected_x);
  CHECK(to_string(cex.final_values().at(x)) == "9223372036854775813");
  CHECK(cex.final_values().at(y) == 5);
}

CegarOptions options(double time_limit) {
  CegarOptions o;
  o.time_limit_s = time_limit;
  return o;
}

}  // namespace

TEST_CASE("big replay: predicate CEGAR reports and replays the input 2^63 + 5") {
  const Cfa cfa = big_model();
  CEGAR<PredCart, PredicateRefiner> cegar(cfa, options(30));
  const VerificationResult r = cegar.run();
  check_big_counterexample(cfa, r);

  // The reports print the exact value: the table, and JSON as a number.
  std::ostringstream text;
  print_counterexample(text, *r.counterexample);
  CHECK(text.str().find("9223372036854775813") != std::string::npos);
  std::ostringstream json;
  write_json(json, r, "big_input_unsafe.cfa", "pred-cart");
  CHECK(json.str().find("\"x\":9223372036854775813") != std::string::npos);

  CEGAR<PredBool, PredicateRefiner> boolean(cfa, options(30));
  check_big_counterexample(cfa, boolean.run());
}

TEST_CASE("big replay: explicit values with the SMT check (the CLI's expl) find it too") {
  const Cfa cfa = big_model();
  CEGAR<Expl, ExplicitSmtRefiner> smt(cfa, options(30));
  check_big_counterexample(cfa, smt.run());
  // Without a solver the input search stays within int64: UNKNOWN, never SAFE.
  CEGAR<Expl, ExplicitRefiner> plain(cfa, options(5));
  const VerificationResult p = plain.run();
  CAPTURE(p.reason);
  CHECK(p.verdict == Verdict::Unknown);
}

TEST_CASE("big replay: block formulas (ABE) and the BMC of VINTA read big models") {
  const Cfa cfa = big_model();
  CEGAR<PredAbe, BlockRefiner> abe(cfa, options(30), PredAbe(cfa), BlockRefiner(cfa));
  check_big_counterexample(cfa, abe.run());

  Vinta<BoxDomain> v(cfa, BoxDomain{}, VintaOptions{});
  Limits limits;
  limits.time_limit_s = 30;
  check_big_counterexample(cfa, v.run(&limits));
}

TEST_CASE("big replay: the exact feasibility check of the error path") {
  const Cfa cfa = big_model();
  const VarId x = var(cfa, "x");
  // The path L0 -> L1 -> L2 -> L3 -> ERR.
  std::vector<Operation> ops;
  Loc at = cfa.initial_location();
  for (const char* next : {"L1", "L2", "L3", "ERR"})
    for (auto e : cfa.out_edges(at))
      if (cfa.name(cfa.target(e)) == next) {
        ops.push_back(cfa.operation(e));
        at = cfa.target(e);
        break;
      }
  REQUIRE(ops.size() == 4);
  SsaVars ssa(*cfa.expr_manager());
  Cvc5Solver solver(ssa.ssa());
  const PathFeasibility f = check_path_feasibility(ssa, ops, solver);
  CAPTURE(f.reason);
  REQUIRE(f.feasible());
  CHECK(f.inputs.havoc[0] == expected_x);
  const ReplayResult rp = replay(cfa.exprs(), ops, f.inputs, ReplayRecord::Changes);
  REQUIRE(rp.ok);
  CHECK(rp.changes.front().value == expected_x);
  // The 64-bit wrap-around of the same equation, x = -2^63 + 5, is refused.
  PathInputs wrapped = f.inputs;
  wrapped.havoc[0] = BigInt(std::numeric_limits<std::int64_t>::min()) + 5;
  const ReplayResult bad = replay(cfa.exprs(), ops, wrapped);
  CHECK_FALSE(bad.ok);
  CHECK(bad.failed_step == 1);
  (void)x;
}

}  // namespace big_int_replay_test
