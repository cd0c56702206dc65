#pragma once
// The independent SAFE check: a certificate (certify/certificate.hpp) is
// proved with cvc5 on a solver instance of its own, knowing nothing of the analysis
// that produced it:
//   initiation   inv(init) holds for every state,
//   consecution  inv(l) /\ edge implies inv(l')' for every CFA edge (l, op, l'), or, when
//                the certificate has invariants only at some points, for every block of
//                loop-free paths between two points (one query per block; points the
//                certificate does not constrain, such as loop heads it skips, get true),
//   safety       inv(error) is unsatisfiable.
// The queries are those of certify/invariant_check.hpp (exact integer semantics). Cost:
// one query per edge (or block), each over the invariants at its two ends; with the
// ARG's successor hints (Certificate::successors) one query per disjunct and out-edge,
// each over a disjunct and its successors' few disjuncts.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "precis/certify/certificate.hpp"
#include "precis/certify/explicit_consecution.hpp"
#include "precis/certify/invariant_check.hpp"
#include "precis/cfa/block_encoding.hpp"
#include "precis/core/limits.hpp"
#include "precis/smt/cvc5_solver.hpp"

namespace precis {

struct CertificateCheck {
  bool valid = false;
  std::string failure;          // empty when valid
  std::string kind;             // initiation, safety or consecution
  std::optional<Loc> from, to;  // the edge or block that fails
  bool undecided = false;       // the failing query timed out: no proof, no refutation
  bool unfinished = false;      // the run's time limit ended the check (undecided too)
  std::size_t queries = 0;
  std::size_t evaluated = 0;  // consecution steps proved by evaluation, not the solver
  // The candidate invariant per location that proved safety instead of the certificate
  // (empty: the certificate itself was checked), and the queries the candidate took.
  std::vector<Term> candidate;
  std::size_t candidate_queries = 0;
  std::size_t points = 0;     // locations with an invariant other than false
  std::size_t disjuncts = 0;  // total over the invariants
  double seconds = 0;
};

namespace detail {

// The successor hint of disjunct i at l along l's k-th out-edge to t, if the certificate
// has one of the right shape (indices within the target's disjuncts).
inline const std::vector<std::uint32_t>* successor_hint(const Certificate& c, Loc l, std::size_t i,
                                                        std::size_t k, Loc t) {
  if (l >= c.successors.size() || i >= c.successors[l].size() || k >= c.successors[l][i].size())
    return nullptr;
  const auto& h = c.successors[l][i][k];
  if (!h) return nullptr;
  for (std::uint32_t j : *h)
    if (j >= c.disjuncts[t].size()) return nullptr;
  return &*h;
}

// Consecution of an edge split by the source's disjuncts. First by evaluation
// (certify/explicit_consecution.hpp): a disjunct that binds values is stepped along the
// edge exactly and its successor looked up among the target's disjuncts, no solver
// query. The rest by the solver: d_i /\ edge => (the hinted target disjuncts)', and
// where that fails d_i /\ edge => inv(t)'. Each query is over a few disjuncts instead of
// the whole invariants at both ends, so the check stays linear in the ARG with small
// queries. (One query for all i, a disjunction over the steps, is smaller in count but
// far slower: cvc5 searches the disjunction; locks_8 took 25 s instead of 1.2 s.)
// Without hints for the remaining disjuncts, one query over their disjunction decides;
// when every disjunct remains, or a disjunct leaves the whole invariant, the caller's
// whole query decides (and reports).
class DisjunctEdgeProof {
 public:
  DisjunctEdgeProof(const Cfa& cfa, const Certificate& c, const std::vector<Term>& inv,
                    Deadline deadline, bool evaluate)
      : cfa_(cfa),
        c_(c),
        inv_(inv),
        deadline_(std::move(deadline)),
        evaluate_(evaluate),
        index_(cfa.num_locations()) {}

  [[nodiscard]] std::size_t evaluated() const noexcept { return evaluated_; }

  bool operator()(Loc l, std::size_t k, CfaEdge e, const InfeasibleQuery& infeasible) {
    ExprManager& em = *cfa_.expr_manager();
    const Loc t = cfa_.target(e);
    const auto& ds = c_.disjuncts[l];
    const Operation& op = cfa_.operation(e);
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < ds.size(); ++i) {
      if (evaluate_) {
        if ((++steps_ & 1023U) == 0) deadline_.check();
        if (const auto& b = index_at(l).bindings(i)) {
          const auto post = evaluate_step(*b, op);
          if (!post || index_at(t).contains(*post, successor_hint(c_, l, i, k, t))) {
            ++evaluated_;
            continue;
          }
        }
      }
      rest.push_back(i);
    }
    if (rest.empty()) return true;
    bool any = false;
    for (std::size_t i : rest) any = any || successor_hint(c_, l, i, k, t) != nullptr;
    const Term whole = em.not_(inv_[t]);
    if (!any) {
      if (rest.size() == ds.size()) return false;
      std::vector<Term> some;
      for (std::size_t i : rest) some.push_back(ds[i]);
      return infeasible({Assume{em.disj(std::span<const Term>(some))}, op, Assume{whole}});
    }
    for (std::size_t i : rest) {
      Term target = whole;
      if (const auto* h = successor_hint(c_, l, i, k, t)) {
        std::vector<Term> some;
        for (std::uint32_t j : *h) some.push_back(c_.disjuncts[t][j]);
        target = em.not_(em.disj(std::span<const Term>(some)));
      }
      if (infeasible({Assume{ds[i]}, op, Assume{target}})) continue;
      if (target == whole || !infeasible({Assume{ds[i]}, op, Assume{whole}})) return false;
    }
    return true;
  }

 private:
  const BindingIndex& index_at(Loc l) {
    if (!index_[l]) index_[l].emplace(std::span<const Term>(c_.disjuncts[l]), &deadline_);
    return *index_[l];
  }

  const Cfa& cfa_;
  const Certificate& c_;
  const std::vector<Term>& inv_;
  Deadline deadline_;
  bool evaluate_;
  std::vector<std::optional<BindingIndex>> index_;  // built on first use per location
  std::size_t evaluated_ = 0;
  std::size_t steps_ = 0;
};

}  // namespace detail

// How the checker proves consecution of disjuncts that bind values: by evaluation and
// lookup (the default), or by the solver like every other disjunct (to compare).
enum class BindingCheck { Evaluate, Solver };

// A candidate invariant smaller than the certificate, tried first (cheaper to prove): none, or
// the box hull per location (certify/explicit_consecution.hpp's box_hull) where every
// disjunct binds values, the certificate's own disjunction elsewhere. An inductive, safe
// candidate proves safety by itself, whatever the certificate says; the checker then
// reports it in CertificateCheck::candidate, and witnesses are written from it. A
// candidate that fails costs its queries, and the full certificate decides.
enum class Candidate { None, Hull };

struct CheckOptions {
  BindingCheck bindings = BindingCheck::Evaluate;
  Candidate candidate = Candidate::None;
};

inline CertificateCheck check_certificate(const Cfa& cfa, const Certificate& c,
                                          Cvc5Options opts = {}, CheckOptions how = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  ExprManager& em = *cfa.expr_manager();
  CertificateCheck out;
  out.points = c.reached_points();
  out.disjuncts = c.total_disjuncts();
  const std::size_t n = cfa.num_locations();
  if (c.num_locations() != n || c.disjuncts.size() != n) {
    out.kind = "shape";
    out.failure = "the certificate has " + std::to_string(c.num_locations()) + " locations and ";
    out.failure.append(std::to_string(c.disjuncts.size())).append(" invariants, the CFA ");
    out.failure.append(std::to_string(n)).append(" locations");
    return out;
  }
  std::vector<Term> inv(n, em.true_());
  bool every = true;
  for (Loc l = 0; l < n; ++l) {
    if (c.has(l))
      inv[l] = c.invariant(l, em);
    else
      every = false;
  }
  const auto at = [&](Loc l) { return inv[l]; };
  opts.unsat_cores = false;  // only sat or unsat is asked
  InvariantCheck r;
  const Deadline deadline = opts.deadline;
  detail::DisjunctEdgeProof proof(cfa, c, inv, deadline, how.bindings == BindingCheck::Evaluate);
  try {
    if (every && how.candidate == Candidate::Hull) {
      std::vector<Term> hull(n);
      bool smaller = false;
      for (Loc l = 0; l < n; ++l) {
        hull[l] = inv[l];
        if (c.disjuncts[l].size() < 2) continue;
        if (auto h = box_hull(std::span<const Term>(c.disjuncts[l]), em)) {
          hull[l] = *h;
          smaller = true;
        }
      }
      if (smaller) {
        const InvariantCheck hc = check_invariant(
            cfa, [&](Loc l) { return hull[l]; }, opts);
        out.candidate_queries = hc.queries;
        if (hc.inductive) {
          out.valid = true;
          out.candidate = std::move(hull);
          out.queries = hc.queries;
          out.seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          return out;
        }
      }
    }
    if (every) {
      r = check_invariant(cfa, at, std::move(opts),
                          [&proof](Loc l, std::size_t k, CfaEdge e, const InfeasibleQuery& q) {
                            return proof(l, k, e, q);
                          });
    } else {
      const BlockOperator op(cfa, c.point);
      const BlockGraph graph(cfa, op);
      r = check_block_invariant(cfa, graph, at, std::move(opts));
    }
  } catch (const limit_reached& e) {
    // The run's budget ended inside the check: no proof, and no evidence against it.
    r = InvariantCheck{};
    r.undecided = true;
    r.kind = "unfinished";
    r.failure = std::string("certificate check not finished: ") + e.what();
    out.unfinished = true;
  }
  out.evaluated = proof.evaluated();
  out.valid = r.inductive;
  out.failure = r.failure;
  out.kind = r.kind;
  out.from = r.from;
  out.to = r.to;
  out.undecided = r.undecided;
  out.queries = r.queries + out.candidate_queries;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace precis
