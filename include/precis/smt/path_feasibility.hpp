#pragma once
// Exact feasibility of a path with an SMT solver: the precise counterexample check of
// the explicit-value paper (section III-F). A Feasible answer carries concrete values
// for every nondeterministic choice, and it is given only after the concrete
// interpreter replayed the path with them to its end (design: a verdict is sacred).
// Model values are read exactly (SMT integers are unbounded, and so is the replay:
// an input may have to be 2^63 + 5).

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

enum class PathStatus : std::uint8_t { Feasible, Infeasible, Unknown };

struct PathFeasibility {
  PathStatus status = PathStatus::Unknown;
  PathInputs inputs;              // Feasible: replayed by precis::replay
  std::vector<std::size_t> core;  // Infeasible: steps of an unsat core (ascending)
  std::string reason;             // Unknown: why

  [[nodiscard]] bool feasible() const noexcept { return status == PathStatus::Feasible; }
  [[nodiscard]] bool infeasible() const noexcept { return status == PathStatus::Infeasible; }
};

namespace detail {

// Side conditions under which the concrete interpreter agrees with the SMT semantics:
// no division by zero (x/0 is uninterpreted in SMT, and the replay refuses it). Both
// compute over the unbounded integers, so no range guard is needed.
inline void exactness_guards(ExprManager& em, Term t, std::vector<Term>& out,
                             std::unordered_map<Term, bool, TermHash>& seen) {
  if (!seen.emplace(t, true).second) return;
  for (std::size_t i = 0; i < t.num_args(); ++i) exactness_guards(em, t.arg(i), out, seen);
  switch (t.op()) {
    case Op::Div:
    case Op::Mod:
    case Op::Rem: out.push_back(em.neq(t.arg(1), em.int_val(0))); break;
    default: break;
  }
}

template <SmtSolver S>
PathStatus read_inputs(SsaVars& ssa, std::span<const Operation> ops, const PathFormula& pf,
                       S& solver, PathInputs& in, std::string& reason) {
  const ExprManager& base = ssa.base();
  in.initial.assign(base.num_vars(), 0);
  in.havoc.assign(ops.size(), 0);
  for (VarId x = 0; x < base.num_vars(); ++x) {
    auto id = ssa.find(x, 0);
    if (!id) continue;  // not on the path: any value does, 0 it is
    if (!read_model_input(solver, base, x, ssa.ssa().var(*id), in.initial[x], in.arrays.initial, x,
                          reason))
      return PathStatus::Unknown;
  }
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto* h = std::get_if<Havoc>(&ops[i]);
    if (!h) continue;
    if (!read_model_input(solver, base, h->var, ssa.var(h->var, pf.index_at(i + 1, h->var)),
                          in.havoc[i], in.arrays.havoc, i, reason))
      return PathStatus::Unknown;
  }
  return PathStatus::Feasible;
}

}  // namespace detail

// `solver` must be a solver over `ssa.ssa()`. Its assertion stack is left unchanged.
template <SmtSolver S>
PathFeasibility check_path_feasibility(SsaVars& ssa, std::span<const Operation> ops, S& solver) {
  PathFeasibility res;
  if (&solver.manager() != &ssa.ssa()) {
    res.reason = "solver is not over the SSA manager";
    return res;
  }
  ssa.set_deadline(solver_deadline(solver));
  PathFormula pf = encode_path(ssa, ops);
  // Steps as assumptions, so an unsat core names steps.
  std::vector<Term> as;
  std::vector<std::size_t> step_of;
  for (std::size_t i = 0; i < pf.size(); ++i) {
    if (pf.steps[i] == ssa.ssa().true_()) continue;
    as.push_back(pf.steps[i]);
    step_of.push_back(i);
  }
  SatResult r = solver.check_assuming(as);
  if (r == SatResult::Unsat) {
    res.status = PathStatus::Infeasible;
    std::unordered_map<Term, std::size_t, TermHash> first;
    for (std::size_t j = as.size(); j-- > 0;) first[as[j]] = step_of[j];
    for (Term c : solver.unsat_core()) res.core.push_back(first.at(c));
    std::sort(res.core.begin(), res.core.end());
    return res;
  }
  if (r == SatResult::Unknown) {
    res.reason = "solver: " + std::string(solver.reason_unknown());
    return res;
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (detail::read_inputs(ssa, ops, pf, solver, res.inputs, res.reason) == PathStatus::Feasible) {
      ReplayResult rp = replay(ssa.base(), ops, res.inputs, ReplayRecord::None);
      if (rp.ok) {
        res.status = PathStatus::Feasible;
        res.reason.clear();
        return res;
      }
      res.reason =
          "model does not replay at step " + std::to_string(rp.failed_step) + ": " + rp.reason;
    }
    if (attempt == 1) break;
    // The model divided by zero: ask for one that the interpreter can execute. Unsat
    // here means "feasible only with x/0", which the replay cannot confirm.
    std::vector<Term> guarded = as;
    std::unordered_map<Term, bool, TermHash> seen;
    for (Term t : as) detail::exactness_guards(ssa.ssa(), t, guarded, seen);
    if (guarded.size() == as.size()) break;  // no division: asking again cannot help
    SatResult g = solver.check_assuming(guarded);
    if (g != SatResult::Sat) {
      res.reason += g == SatResult::Unsat ? "; the path is feasible only with a division by zero"
                                          : "; solver: " + std::string(solver.reason_unknown());
      return res;
    }
  }
  res.status = PathStatus::Unknown;
  return res;
}

}  // namespace precis
