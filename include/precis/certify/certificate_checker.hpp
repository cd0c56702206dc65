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
// one query per edge (or block), each over the invariants at its two ends.

#include <chrono>
#include <cstddef>
#include <optional>
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

inline CertificateCheck check_certificate(const Cfa& cfa, const Certificate& c,
                                          Cvc5Options opts = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  ExprManager& em = *cfa.expr_manager();
  CertificateCheck out;
  out.points = c.reached_points();
  out.disjuncts = c.total_disjuncts();
  const std::size_t n = cfa.num_locations();
  if (c.num_locations() != n) {
    out.kind = "shape";
    out.failure = "the certificate has " + std::to_string(c.num_locations()) +
                  " locations, the CFA " + std::to_string(n);
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
  InvariantCheck r;
  if (every) {
    r = check_invariant(cfa, at, std::move(opts));
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
