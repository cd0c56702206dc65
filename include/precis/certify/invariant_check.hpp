#pragma once
// A SAFE certificate checked by the solver (the VINTA paper's safe
// inductive invariant, section 3): a formula inv(l) over the program variables for
// every location l is a certificate of safety when
//   initiation   inv(init) holds for every state (the initial location is unconstrained),
//   consecution  for every edge (l, op, l'): inv(l) /\ op implies inv(l') (one query
//                per edge: the path [assume inv(l); op; assume not inv(l')] is infeasible),
//   safety       inv(error) is unsatisfiable.
// Every query is a path feasibility check of smt/path_feasibility.hpp (exact integer
// semantics, the same SSA encoding as every refinement). The check is linear in the
// edges; the first failure is reported with the edge that breaks it.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term_structure.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

struct InvariantCheck {
  bool inductive = false;
  std::size_t queries = 0;
  std::string failure;  // empty when inductive
  // Where it failed: "initiation", "safety" or "consecution", and for consecution the
  // edge (or block) from -> to.
  std::string kind;
  std::optional<Loc> from, to;
  // The failing query was not decided (solver timeout, deadline): no evidence against
  // the invariant, only no proof.
  bool undecided = false;
};

// A query of the check: is this path of operations infeasible (unsat)? Counted.
using InfeasibleQuery = std::function<bool(std::vector<Operation>)>;
// An optional cheaper proof of one edge's consecution, tried before the whole query:
// (source, index of the edge among the source's out-edges, edge, query) -> proved. On
// false the whole query decides; so a proof that fails costs time, never soundness
// (certify/certificate_checker.hpp: per source disjunct, with the ARG's successors).
using EdgeProof = std::function<bool(Loc, std::size_t, CfaEdge, const InfeasibleQuery&)>;

namespace detail {

// One edge's consecution query cut down to what the edge can change (measured: the
// certificate of an interval or congruence invariant over 100 variables cost 100x its
// analysis). The conjuncts of `to` that `from` also has and the edge does not write hold
// by the frame rule and are not asked; the others are asked over the conjuncts of `from`
// that share a variable with them or with the edge, transitively (the cone of
// influence). Leaving out premises only weakens them, so an unsat sliced query proves
// the edge; a sat one proves nothing and the caller asks the full query.
class ConsecutionSlicer {
 public:
  // `deadline` is polled while the slicer collects a term's variables: an invariant can
  // be a disjunction of a million disjuncts.
  explicit ConsecutionSlicer(const Deadline& deadline) { vars_.set_deadline(deadline); }

  struct Query {
    Term premise, goal;   // goal: true when every conjunct of `to` holds by the frame
    bool sliced = false;  // differs from (from, to)
  };

  Query slice(ExprManager& em, Term from, const Operation& op, Term to) {
    std::vector<Term> pre, post, goal;
    flatten_conjunction(from, pre);
    flatten_conjunction(to, post);
    std::vector<VarId> written;
    if (const auto* a = std::get_if<Assign>(&op)) written.push_back(a->var);
    if (const auto* h = std::get_if<Havoc>(&op)) written.push_back(h->var);
    const auto writes = [&](Term c) {
      const std::vector<VarId>& vs = vars_.vars(c);
      return !written.empty() && std::binary_search(vs.begin(), vs.end(), written[0]);
    };
    const std::unordered_set<Term, TermHash> in_pre(pre.begin(), pre.end());
    for (Term c : post)
      if (in_pre.count(c) == 0 || writes(c)) goal.push_back(c);
    // The cone: variables of the goal and the edge, then every premise that meets them.
    std::vector<VarId> cone = written;
    for (Term c : goal) add(cone, vars_.vars(c));
    std::visit(
        overloaded{[](const Skip&) {}, [&](const Assume& a) { add(cone, vars_.vars(a.cond)); },
                   [&](const Assign& a) { add(cone, vars_.vars(a.value)); }, [](const Havoc&) {}},
        op);
    std::vector<bool> taken(pre.size(), false);
    for (bool grew = !goal.empty(); grew;) {
      grew = false;
      for (std::size_t i = 0; i < pre.size(); ++i) {
        if (taken[i]) continue;
        const std::vector<VarId>& vs = vars_.vars(pre[i]);
        const bool meets = vs.empty() || std::any_of(vs.begin(), vs.end(), [&](VarId v) {
                             return std::binary_search(cone.begin(), cone.end(), v);
                           });
        if (!meets) continue;
        taken[i] = true;
        grew = add(cone, vs) || grew;
      }
    }
    std::vector<Term> kept;
    for (std::size_t i = 0; i < pre.size(); ++i)
      if (taken[i]) kept.push_back(pre[i]);
    const bool sliced = kept.size() != pre.size() || goal.size() != post.size();
    return {em.conj(kept), em.conj(goal), sliced};
  }

 private:
  // Merges sorted `vs` into sorted `into`; whether anything was new.
  static bool add(std::vector<VarId>& into, const std::vector<VarId>& vs) {
    const std::size_t before = into.size();
    std::vector<VarId> merged;
    std::set_union(into.begin(), into.end(), vs.begin(), vs.end(), std::back_inserter(merged));
    into.swap(merged);
    return into.size() != before;
  }

  TermVarCache vars_;
};

}  // namespace detail

// inv(l): the candidate invariant at l, a Bool term over the CFA's expression manager
// (false for unreachable locations). Locations that no edge leaves or enters are checked
// like any other.
// `safety`: also prove that inv excludes the error location (off: an inductive invariant
// that need not be a proof of safety, e.g. one handed to another analysis).
inline InvariantCheck check_invariant(const Cfa& cfa, const std::function<Term(Loc)>& inv,
                                      Cvc5Options opts = {}, const EdgeProof& proof = {},
                                      bool safety = true) {
  InvariantCheck out;
  ExprManager& em = *cfa.expr_manager();
  SsaVars ssa(em);
  ssa.set_deadline(opts.deadline);  // (encoding a large guard or invariant polls it)
  Cvc5Solver solver(ssa.ssa(), std::move(opts));
  std::string undecided;  // set when the solver answered unknown
  const InfeasibleQuery infeasible = [&](std::vector<Operation> ops) {
    ++out.queries;
    const PathFeasibility f = check_path_feasibility(ssa, std::span<const Operation>(ops), solver);
    out.undecided = f.status == PathStatus::Unknown;
    undecided = out.undecided ? " (the solver could not decide: " + f.reason + ")" : std::string();
    return f.infeasible();
  };
  const Loc init = cfa.initial_location();
  if (!infeasible({Assume{em.not_(inv(init))}})) {
    out.kind = "initiation";
    out.from = out.to = init;
    out.failure = "initiation: the invariant at " + cfa.name(init) + " (" +
                  to_string(inv(init), em) + ") does not hold for every initial state" + undecided;
    return out;
  }
  if (auto err = cfa.error_location(); safety && err && !infeasible({Assume{inv(*err)}})) {
    out.kind = "safety";
    out.from = out.to = *err;
    out.failure = "safety: the invariant at the error location " + cfa.name(*err) + " (" +
                  to_string(inv(*err), em) + ") is satisfiable" + undecided;
    return out;
  }
  detail::ConsecutionSlicer slicer(solver.deadline());
  for (Loc l = 0; l < cfa.num_locations(); ++l) {
    const Term from = inv(l);
    if (from == em.false_()) continue;
    std::size_t k = 0;
    for (auto e : cfa.out_edges(l)) {
      const std::size_t index = k++;
      const Loc t = cfa.target(e);
      const Term to = inv(t);
      if (to == em.true_()) continue;
      if (proof && proof(l, index, e, infeasible)) continue;
      const Operation& op = cfa.operation(e);
      const detail::ConsecutionSlicer::Query q = slicer.slice(em, from, op, to);
      if (q.goal == em.true_()) continue;  // every conjunct by the frame rule
      if (q.sliced && infeasible({Assume{q.premise}, op, Assume{em.not_(q.goal)}})) continue;
      if (!infeasible({Assume{from}, op, Assume{em.not_(to)}})) {
        out.kind = "consecution";
        out.from = l;
        out.to = t;
        out.failure = "consecution: the edge " + cfa.name(l) + " -> " + cfa.name(t) + " (" +
                      to_string(cfa.operation(e), em) + ") leaves the invariant " +
                      to_string(to, em) + undecided;
        return out;
      }
    }
  }
  out.inductive = true;
  return out;
}

// Consecution along one block: from /\ [every path of b] /\ !to' is unsatisfiable
// (from and to over program variables; the block formula of smt/block_formula.hpp with
// fresh control variables from `enc`). Unknown counts as "does not hold".
inline SatResult block_consecution_query(SsaVars& ssa, BlockFormulaEncoder& enc, Cvc5Solver& solver,
                                         Term from, const Block& b, Term to) {
  ExprManager& s = ssa.ssa();
  std::vector<std::uint32_t> index(ssa.base().num_vars(), 0);
  const Term pre = ssa.shift(from, std::span<const std::uint32_t>(index));
  const BlockFormula bf = enc.encode(b, index);
  const Term post = ssa.shift(ssa.base().not_(to), std::span<const std::uint32_t>(index));
  SolverScope<Cvc5Solver> scope(solver);
  solver.assert_(s.conj(std::vector<Term>{pre, bf.formula, post}));
  return solver.check();
}
inline bool block_consecution(SsaVars& ssa, BlockFormulaEncoder& enc, Cvc5Solver& solver, Term from,
                              const Block& b, Term to) {
  return block_consecution_query(ssa, enc, solver, from, b, to) == SatResult::Unsat;
}

// The same certificate over a cutpoint graph (cfa/block_encoding.hpp; VINTA's SAFE
// answer): inv(h) is given at the abstraction points only, and
// consecution is checked per block: inv(entry) and [all paths of the block] and
// not inv(exit)' is unsatisfiable (the block formula of smt/block_formula.hpp, so a block with
// 2^k paths is one query). Blocks leaving a point whose invariant is false are skipped.
// An Unknown answer is a failure (the certificate is not established).
inline InvariantCheck check_block_invariant(const Cfa& cfa, const BlockGraph& graph,
                                            const std::function<Term(Loc)>& inv,
                                            Cvc5Options opts = {}) {
  InvariantCheck out;
  ExprManager& em = *cfa.expr_manager();
  SsaVars ssa(em);
  ssa.set_deadline(opts.deadline);  // (encoding a block of thousands of edges polls it)
  BlockFormulaEncoder enc(cfa, ssa);
  Cvc5Solver solver(ssa.ssa(), std::move(opts));
  const auto unsat = [&](std::initializer_list<Term> fs) {
    ++out.queries;
    SolverScope<Cvc5Solver> scope(solver);
    for (Term f : fs) solver.assert_(f);
    const SatResult a = solver.check();
    out.undecided = a == SatResult::Unknown;
    return a == SatResult::Unsat;
  };
  const std::vector<std::uint32_t> zero;
  const auto at_entry = [&](Term t) { return ssa.shift(t, std::span<const std::uint32_t>(zero)); };
  const Loc init = cfa.initial_location();
  if (!unsat({at_entry(em.not_(inv(init)))})) {
    out.kind = "initiation";
    out.from = out.to = init;
    out.failure = "initiation: the invariant at " + cfa.name(init) + " (" +
                  to_string(inv(init), em) + ") does not hold for every initial state";
    return out;
  }
  if (auto err = cfa.error_location(); err && !unsat({at_entry(inv(*err))})) {
    out.kind = "safety";
    out.from = out.to = *err;
    out.failure = "safety: the invariant at the error location " + cfa.name(*err) + " (" +
                  to_string(inv(*err), em) + ") is satisfiable";
    return out;
  }
  for (const Block& b : graph.blocks()) {
    const Term from = inv(b.entry);
    if (from == em.false_()) continue;
    const Term to = inv(b.exit);
    if (to == em.true_()) continue;
    ++out.queries;
    const SatResult a = block_consecution_query(ssa, enc, solver, from, b, to);
    out.undecided = a == SatResult::Unknown;
    if (a != SatResult::Unsat) {
      out.kind = "consecution";
      out.from = b.entry;
      out.to = b.exit;
      out.failure = "consecution: the block " + cfa.name(b.entry) + " -> " + cfa.name(b.exit) +
                    " leaves the invariant " + to_string(to, em);
      return out;
    }
  }
  out.inductive = true;
  return out;
}

}  // namespace precis
