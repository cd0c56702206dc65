#pragma once
// Explicit-value refinement with the precise counterexample check (explicit-value
// paper, section III-F): explicit interpolation (Alg. 3/4) for paths the explicit
// domain refutes; for the others the SMT solver decides. A satisfiable path formula
// yields concrete inputs that the concrete interpreter replays (then UNSAFE); an
// unsatisfiable one is a path that explicit values cannot refute (relations,
// inequalities): Unknown here, the predicate analysis' job in ProductDomain<Expl, Pred>.

#include <memory>
#include <string>

#include "precis/cfa/cfa.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"

namespace precis {

class ExplicitSmtRefiner {
 public:
  using increment_type = VariableSet;

  explicit ExplicitSmtRefiner(const Cfa& cfa, Cvc5Options opts = {})
      : cfa_(&cfa),
        ssa_(std::make_unique<SsaVars>(*cfa.expr_manager())),
        solver_(std::make_unique<Cvc5Solver>(ssa_->ssa(), opts)) {}

  Refinement<VariableSet> refine(const ErrorPath& path, Statistics& stats) {
    Refinement<VariableSet> out;
    const auto ops = path.operations();
    if (explicit_refutation(ops, stats, out, solver_->deadline())) return out;
    PathFeasibility exact;
    {
      Stopwatch sw(stats.time_feasibility);
      exact = check_path_feasibility(*ssa_, ops, *solver_);
    }
    stats.extra["SMT path checks"] += 1;
    stats.extra["solver calls"] = static_cast<double>(solver_->stats().calls());
    stats.extra["solver time (s)"] = solver_->stats().seconds();
    switch (exact.status) {
      case PathStatus::Feasible: confirm_by_replay(*cfa_, path, ops, exact.inputs, out); return out;
      case PathStatus::Infeasible:
        out.reason =
            "the error path is infeasible (SMT), but explicit values cannot refute it "
            "(relations or inequalities): use --analysis expl+pred";
        return out;
      case PathStatus::Unknown:
        out.reason = "the SMT check of the error path gave no answer: " + exact.reason;
        return out;
    }
    return out;
  }

 private:
  const Cfa* cfa_;
  std::unique_ptr<SsaVars> ssa_;
  std::unique_ptr<Cvc5Solver> solver_;
};

static_assert(Refiner<ExplicitSmtRefiner>);

}  // namespace precis
