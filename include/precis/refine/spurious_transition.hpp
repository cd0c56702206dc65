#pragma once
// Spurious transitions (synergy paper, Definition 6).
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

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/expr/term.hpp"
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

// ---- Definition 6 along a whole abstract error path ------------------------------
//
// SATABS's abstract counterexample assigns every predicate a value at every step; an
// ARG path of Cartesian states leaves the predicates that no literal decides open, so
// it stands for all those completions at once (and a Cartesian ARG transition alone is
// never spurious: the post holds exactly the literals every successor satisfies).
// check_abstract_path asks Definition 6 of all completions in one query: transition i
// is encoded over its own copies of the variables, and at each inner position k
// (0 < k < n) one link literal per predicate p in preds(k),
//     p over the post-copies of transition k-1  <->  p over the pre-copies of transition k,
// makes the two transitions agree on p's abstract value. The conjunction is satisfiable
// iff some completion is a path of the precise abstraction over these predicates (no
// spurious transition); unsatisfiable iff every completion has a spurious transition.
// Then the links of an unsat core name them: transition i is blamed for the predicates
// whose links at i or at i+1 are in the core, its cluster sigma_ST(t_i) (section 3.1;
// the precise abstraction of edge i over it excludes the transitions the core does).
//
// The encoding is linear in the path: each transition bumps only the variables it and
// its predicates mention to fresh SSA copies.
struct AbstractPathCheck {
  SatResult result = SatResult::Unknown;
  std::vector<PredicateSet> clusters;  // per transition (Unsat only; empty: not blamed)
  std::size_t links = 0;               // link literals of the query
  std::size_t core = 0;                // link literals in the unsat core
  [[nodiscard]] std::size_t blamed() const {
    std::size_t n = 0;
    for (const PredicateSet& c : clusters) n += !c.empty();
    return n;
  }
};

// ops: the path's operations; preds_at(k) -> const PredicateSet&: the predicates at
// position k (the location before step k), 0 < k < ops.size().
template <class PredsAt>
requires std::invocable<PredsAt&, std::size_t> AbstractPathCheck check_abstract_path(
    PredicateAbstractor& abs, std::span<const Operation* const> ops, PredsAt&& preds_at) {
  SsaVars& ssa = abs.ssa();
  ExprManager& e = ssa.ssa();
  const ExprManager& base = ssa.base();
  const std::size_t n = ops.size();
  AbstractPathCheck out;
  std::vector<std::uint32_t> index(base.num_vars(), 0);
  std::uint32_t fresh = 0;
  std::vector<Term> steps, links;
  std::vector<std::pair<std::size_t, Term>> link_of;  // link literal -> (position, predicate)
  std::vector<Term> post;                             // predicates at i+1 over transition i
  std::vector<VarId> vars;
  for (std::size_t i = 0; i < n; ++i) {
    // Fresh copies of what transition i reads, writes, or its predicates mention. Copies
    // step by 2: encode_step writes index + 1, which no later bump reuses.
    vars.clear();
    if (auto w = written_var(*ops[i])) vars.push_back(*w);
    std::visit(
        overloaded{[](const Skip&) {}, [&](const Assume& a) { collect_vars(a.cond, vars); },
                   [&](const Assign& a) { collect_vars(a.value, vars); }, [](const Havoc&) {}},
        *ops[i]);
    if (i > 0)
      for (Term p : preds_at(i)) collect_vars(p, vars);
    if (i + 1 < n)
      for (Term p : preds_at(i + 1)) collect_vars(p, vars);
    fresh += 2;
    for (VarId x : vars) index[x] = fresh;
    if (i > 0) {
      std::size_t j = 0;
      for (Term p : preds_at(i)) {
        const Term l = e.iff(post[j++], ssa.shift(p, index));
        links.push_back(l);
        link_of.emplace_back(i, p);
      }
    }
    steps.push_back(encode_step(ssa, *ops[i], index));
    post.clear();
    if (i + 1 < n)
      for (Term p : preds_at(i + 1)) post.push_back(ssa.shift(p, index));
  }
  out.links = links.size();
  std::vector<Term> core;
  out.result = abs.check_assuming(e.conj(steps), links, &core);
  if (out.result != SatResult::Unsat) return out;
  out.core = core.size();
  out.clusters.assign(n, PredicateSet{});
  std::unordered_map<Term, std::size_t> where;
  for (std::size_t k = 0; k < links.size(); ++k) where.emplace(links[k], k);
  for (Term c : core) {
    auto it = where.find(c);
    if (it == where.end()) continue;
    const auto& [pos, p] = link_of[it->second];
    out.clusters[pos - 1].insert(p);
    out.clusters[pos].insert(p);
  }
  return out;
}

}  // namespace precis
