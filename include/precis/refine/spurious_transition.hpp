#pragma once
// Spurious transitions (synergy paper, Definition 6; issue 12, item 2).
//
// An abstract transition (pre, op, post) is spurious iff no concrete transition lies in
// its concretization: gamma(pre) /\ [op] /\ gamma(post)' is unsatisfiable, with pre over
// the SSA copies x@0, op as one SSA step (the written variable gets x@1) and post over
// the copies after the step. The predicates of an unsat core of that check form the
// cluster for the edge (the paper's sigma_ST(t), section 3.1): the precise abstraction
// of the edge projected on them excludes the transition.
//
// The check runs on the abstractor's incremental solver (one frame, popped after).
// A cube contributes one assumption literal per predicate literal, so the core is
// minimal-ish per literal; a non-cube state (Boolean abstraction, several cubes) is one
// assumption as a whole, and when it is in the core all its predicates are in the
// cluster.
//
//   TransitionCheck c = check_transition(abs, pre, op, post);
//   c.result: Unsat (spurious; c.cluster is set), Sat (a concrete transition exists),
//             Unknown (the solver could not decide; treat as not spurious).
//   spurious_transition(abs, pre, op, post): the cluster, or nullopt for Sat and
//             Unknown (pass `unknown` to tell the two apart).
//
// An empty cluster with Unsat means the operation alone is infeasible (e.g. assume
// false): no predicate is to blame, and a post along it is already bottom.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

struct TransitionCheck {
  SatResult result = SatResult::Unknown;
  // Unsat: the predicates (program terms) of the literals in the unsat core.
  PredicateSet cluster;
  [[nodiscard]] bool spurious() const noexcept { return result == SatResult::Unsat; }
};

namespace spurious_detail {

// The assumptions of one state: (assumption term, predicates it stands for).
inline void state_assumptions(SsaVars& ssa, const PredicateState& s, bool after,
                              std::optional<VarId> written,
                              std::vector<std::pair<Term, PredicateSet>>& out) {
  ExprManager& e = ssa.ssa();
  auto shifted = [&](Term p) {
    return ssa.shift(p,
                     [&](VarId x) -> std::uint32_t { return after && written && x == *written; });
  };
  auto lit = [&](const Literal& l) {
    const Term t = shifted(l.pred);
    return l.positive ? t : e.not_(t);
  };
  if (s.is_cube()) {
    for (const Literal& l : s.cube()) out.emplace_back(lit(l), PredicateSet{l.pred});
    return;
  }
  // Several cubes (or none: bottom is the empty disjunction, false).
  std::vector<Term> ds;
  PredicateSet all;
  for (const Cube& c : s.cubes()) {
    std::vector<Term> ls;
    for (const Literal& l : c) {
      ls.push_back(lit(l));
      all.insert(l.pred);
    }
    ds.push_back(e.conj(ls));
  }
  out.emplace_back(e.disj(ds), std::move(all));
}

}  // namespace spurious_detail

// Definition 6: is (pre, op, post) spurious? See the header comment.
inline TransitionCheck check_transition(PredicateAbstractor& abs, const PredicateState& pre,
                                        const Operation& op, const PredicateState& post) {
  SsaVars& ssa = abs.ssa();
  const std::optional<VarId> written = written_var(op);
  std::vector<std::uint32_t> index;  // all zero; encode_step advances the written variable
  const Term step = encode_step(ssa, op, index);
  std::vector<std::pair<Term, PredicateSet>> as;
  spurious_detail::state_assumptions(ssa, pre, false, written, as);
  spurious_detail::state_assumptions(ssa, post, true, written, as);
  std::vector<Term> terms;
  terms.reserve(as.size());
  for (const auto& a : as) terms.push_back(a.first);
  std::vector<Term> core;
  TransitionCheck out;
  out.result = abs.check_assuming(step, terms, &core);
  if (out.result != SatResult::Unsat) return out;
  // A term may stand for several literals (p at x@0 and at x@1 when op does not write
  // p's variables): every predicate behind a core term joins the cluster.
  for (Term c : core)
    for (const auto& [t, ps] : as)
      if (t == c) out.cluster = out.cluster.join(ps);
  return out;
}

// The cluster of a spurious transition, or nullopt if it is not spurious or the solver
// answered unknown (then `*unknown` is set to true; it is set to false otherwise).
inline std::optional<PredicateSet> spurious_transition(PredicateAbstractor& abs,
                                                       const PredicateState& pre,
                                                       const Operation& op,
                                                       const PredicateState& post,
                                                       bool* unknown = nullptr) {
  TransitionCheck c = check_transition(abs, pre, op, post);
  if (unknown) *unknown = c.result == SatResult::Unknown;
  if (!c.spurious()) return std::nullopt;
  return std::move(c.cluster);
}

}  // namespace precis
