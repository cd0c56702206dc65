#pragma once
// The independent SAFE check (issue 13): a certificate (certify/certificate.hpp) is
// proved with cvc5 on a solver instance of its own, knowing nothing of the analysis
// that produced it:
//   initiation   inv(init) holds for every state,
//   consecution  inv(l) /\ edge implies inv(l')' for every CFA edge (l, op, l'), or, when
//                the certificate has invariants only at some points, for every block of
//                loop-free paths between two points (one query per block; points the
//                certificate does not constrain, such as loop heads it skips, get true),
//   safety       inv(error) is unsatisfiable.
// The queries are those of smt/invariant_check.hpp (exact integer semantics). Cost:
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
#include "precis/cfa/block_encoding.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/invariant_check.hpp"

namespace precis {

struct CertificateCheck {
  bool valid = false;
  std::string failure;          // empty when valid
  std::string kind;             // initiation, safety or consecution
  std::optional<Loc> from, to;  // the edge or block that fails
  bool undecided = false;       // the failing query timed out: no proof, no refutation
  std::size_t queries = 0;
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

// Consecution of an edge split by the source's disjuncts: d_i /\ edge => (the hinted
// target disjuncts)', and where that fails d_i /\ edge => inv(t)'. Each query is over a
// few disjuncts instead of the whole invariants at both ends, so the check stays linear
// in the ARG with small queries. (One query for all i, a disjunction over the steps, is
// smaller in count but far slower: cvc5 searches the disjunction; locks_8 took 25 s
// instead of 1.2 s.) Without hints for the edge, or when a disjunct leaves the whole
// invariant, the caller's whole query decides (and reports).
inline EdgeProof hinted_edge_proof(const Cfa& cfa, const Certificate& c,
                                   const std::vector<Term>& inv) {
  if (c.successors.empty()) return {};
  return [&cfa, &c, &inv](Loc l, std::size_t k, CfaEdge e, const InfeasibleQuery& infeasible) {
    ExprManager& em = *cfa.expr_manager();
    const Loc t = cfa.target(e);
    const auto& ds = c.disjuncts[l];
    std::vector<const std::vector<std::uint32_t>*> hints(ds.size());
    bool any = false;
    for (std::size_t i = 0; i < ds.size(); ++i) {
      hints[i] = successor_hint(c, l, i, k, t);
      any = any || hints[i] != nullptr;
    }
    if (!any) return false;
    const Term whole = em.not_(inv[t]);
    for (std::size_t i = 0; i < ds.size(); ++i) {
      Term target = whole;
      if (const auto* h = hints[i]) {
        std::vector<Term> some;
        for (std::uint32_t j : *h) some.push_back(c.disjuncts[t][j]);
        target = em.not_(em.disj(std::span<const Term>(some)));
      }
      if (infeasible({Assume{ds[i]}, cfa.operation(e), Assume{target}})) continue;
      if (target == whole || !infeasible({Assume{ds[i]}, cfa.operation(e), Assume{whole}}))
        return false;
    }
    return true;
  };
}

}  // namespace detail

inline CertificateCheck check_certificate(const Cfa& cfa, const Certificate& c,
                                          Cvc5Options opts = {}) {
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
  if (every) {
    r = check_invariant(cfa, at, std::move(opts), detail::hinted_edge_proof(cfa, c, inv));
  } else {
    const BlockOperator op(cfa, c.point);
    const BlockGraph graph(cfa, op);
    r = check_block_invariant(cfa, graph, at, std::move(opts));
  }
  out.valid = r.inductive;
  out.failure = r.failure;
  out.kind = r.kind;
  out.from = r.from;
  out.to = r.to;
  out.undecided = r.undecided;
  out.queries = r.queries;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace precis
