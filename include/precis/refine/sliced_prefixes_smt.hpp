#pragma once
// Infeasible sliced prefixes (sliced-prefixes paper, Alg. 3) with the SMT feasibility
// check: one incremental solver pass over the SSA path formula (smt/path_formula.hpp).
// The steps of the feasible sliced prefix so far are asserted in one solver frame; each
// assume is checked once as an assumption against them (unsat: it contradicts the
// prefix, ends one infeasible sliced prefix, and stays out of the frame as Alg. 3's
// no-op). So a path of n steps costs one encoding pass and one check per assume.
//
// Also the prefix_provider specialisations of the SMT-based refiners: SMT prefixes for
// PredicateRefiner, explicit ones for ExplicitSmtRefiner (its explicit half refutes the
// paths it refines; paths only SMT refutes it reports as Unknown anyway).

#include <cstdint>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/sliced_prefixes.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

// The SMT policy for extract_sliced_prefixes: `solver` must be a solver over
// `ssa.ssa()`. Its assertion stack is left as it was (one frame, popped by finish()).
// An assume the solver cannot decide (unknown) is kept in the walk but not asserted:
// the asserted formula is then weaker than the walk, so every prefix reported is still
// infeasible.
template <SmtSolver S>
class SmtPrefixFeasibility {
 public:
  SmtPrefixFeasibility(SsaVars& ssa, S& solver) : ssa_(ssa), solver_(solver) {}

  void start() {
    if (open_) finish();
    index_.assign(ssa_.base().num_vars(), 0);
    undecided_ = 0;
    solver_.push();
    open_ = true;
  }
  PrefixStep step(const Operation& op) {
    const Term t = encode_step(ssa_, op, index_);
    if (t == ssa_.ssa().true_()) return PrefixStep::Extended;
    if (std::holds_alternative<Assume>(op)) {
      const Term as[] = {t};
      switch (solver_.check_assuming(as)) {
        case SatResult::Unsat: return PrefixStep::Contradicting;
        case SatResult::Unknown: ++undecided_; return PrefixStep::Extended;
        case SatResult::Sat: break;
      }
    }
    solver_.assert_(t);
    return PrefixStep::Extended;
  }
  void finish() {
    if (!open_) return;
    open_ = false;
    solver_.pop();
  }
  // Assumes the solver could not decide (kept in the walk unasserted).
  [[nodiscard]] std::size_t undecided() const noexcept { return undecided_; }

 private:
  SsaVars& ssa_;
  S& solver_;
  std::vector<std::uint32_t> index_;
  bool open_ = false;
  std::size_t undecided_ = 0;
};

// Alg. 3 with cvc5: owns its SSA variables and solver (movable, stable addresses).
class SmtPrefixes {
 public:
  explicit SmtPrefixes(const Cfa& cfa, Cvc5Options opts = {})
      : ctx_(std::make_unique<Context>(cfa, std::move(opts))) {}

  std::vector<SlicedPrefix> extract(const ErrorPath& path) {
    SmtPrefixFeasibility<Cvc5Solver> f(ctx_->ssa, ctx_->solver);
    return extract_sliced_prefixes(path, f, ctx_->solver.deadline());
  }
  [[nodiscard]] const SolverStats& solver_stats() const noexcept { return ctx_->solver.stats(); }

 private:
  struct Context {
    Context(const Cfa& cfa, Cvc5Options o)
        : em(cfa.expr_manager()), ssa(*em), solver(ssa.ssa(), std::move(o)) {}
    std::shared_ptr<ExprManager> em;  // keeps the base manager of `ssa` alive
    SsaVars ssa;
    Cvc5Solver solver;
  };
  std::unique_ptr<Context> ctx_;
};

static_assert(PrefixProvider<SmtPrefixes>);

template <>
struct prefix_provider<PredicateRefiner> {
  using type = SmtPrefixes;
  static type make(const Cfa& cfa, PredicateRefiner& r) {
    return SmtPrefixes(cfa, r.options().solver);
  }
};

template <>
struct prefix_provider<ExplicitSmtRefiner> {
  using type = ExplicitPrefixes;
  static type make(const Cfa& /*cfa*/, ExplicitSmtRefiner& /*r*/) { return ExplicitPrefixes(); }
};

}  // namespace precis
