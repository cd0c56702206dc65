#pragma once
// The explicit-value refiner: feasibility check by full-precision SP (section III-B),
// interpolation-based precision extraction (Alg. 3 and 4) for infeasible paths, and a
// confirmed concrete counterexample for feasible ones.
//
// Without a solver the explicit check cannot refute every infeasible path (relations
// between unknown inputs, inequalities); such a path that no concrete inputs replay is
// reported as Unknown with that reason. The SMT layer's refiners decide those.

#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/explicit/variable_set.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/explicit_concretizer.hpp"
#include "precis/refine/explicit_interpolation.hpp"

namespace precis {

// The explicit half of every explicit-value refiner: full-precision SP along the path
// (section III-B) and, if it is contradicting, Alg. 4's precision increments. Returns
// false (and leaves `out` alone) when the explicit domain does not refute the path.
// Throws limit_reached when `deadline` passes.
inline bool explicit_refutation(const std::vector<Operation>& ops, Statistics& stats,
                                Refinement<VariableSet>& out, const Deadline& deadline = {}) {
  ExplicitInterpolants itps;
  {
    Stopwatch sw(stats.time_feasibility);
    itps = explicit_interpolants(ops, deadline);
  }
  if (!itps.infeasible) return false;
  out.kind = RefinementKind::Spurious;
  out.increments = explicit_refine(itps);
  stats.extra["explicit refinements"] += 1;
  return true;
}

class ExplicitRefiner {
 public:
  using increment_type = VariableSet;

  // `deadline`: the run's time budget (Deadline::of(limits)); interpolation and the
  // input search throw limit_reached when it passes. Default: none.
  explicit ExplicitRefiner(const Cfa& cfa, Deadline deadline = {})
      : cfa_(&cfa), deadline_(std::move(deadline)) {}

  Refinement<VariableSet> refine(const ErrorPath& path, Statistics& stats) {
    Refinement<VariableSet> out;
    const auto ops = path.operations();
    if (explicit_refutation(ops, stats, out, deadline_)) return out;
    // Not contradicting: look for concrete inputs and replay.
    if (auto in = concretize_inputs(cfa_->exprs(), ops, 256, deadline_)) {
      if (confirm_by_replay(*cfa_, path, ops, *in, out)) return out;
    }
    out.kind = RefinementKind::Unknown;
    out.reason =
        "the explicit-value check cannot refute the error path, and no concrete inputs "
        "replaying it were found (relations or inequalities over nondeterministic values "
        "need an SMT-based analysis)";
    return out;
  }

  [[nodiscard]] const Deadline& deadline() const noexcept { return deadline_; }

 private:
  const Cfa* cfa_;
  Deadline deadline_;
};

static_assert(Refiner<ExplicitRefiner>);

// The explicit-value analysis refines with explicit interpolation by default.
template <>
struct default_refiner<ExplicitAnalysis> {
  using type = ExplicitRefiner;
};

}  // namespace precis
