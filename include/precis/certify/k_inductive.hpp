#pragma once
// Certificates of k-induction: a k and an invariant per cutpoint, proved on
// the checker's own solvers, knowing nothing of the analysis that found them.
//
// The claim is J(s) = pc != err /\ /\_c (pc = c => inv_c(X)) over the states of the
// cutpoint graph's transition system (smt/unrolling.hpp). J is a proof of safety when
//
//   base:  no state reachable within k - 1 steps violates J
//            init /\ T_0 /\ ... /\ T_{d-1} /\ not J(s_d)  unsat   for every d < k
//   step:  k states in J are followed by one in J
//            J(s_0) /\ T_0 /\ ... /\ J(s_{k-1}) /\ T_{k-1} /\ not J(s_k)  unsat
//
// (s_0 arbitrary: any cutpoint, any values). By induction on the length of a path every
// reachable state is in J, so the error location is unreachable. k = 1 is ordinary
// inductiveness. The invariants inv_c may be `true`; they must hold (they are part of
// the claim), so an analysis passes only invariants it can stand behind, e.g. the
// abstract interpreter's (a wrong one makes the check fail: UNKNOWN, never a wrong
// SAFE).
//
// Each part runs on a fresh cvc5 instance with a fresh SSA manager, within the run's
// deadline (Cvc5Options::deadline; limit_reached ends the check as "not finished").

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/unrolling.hpp"

namespace precis {

struct KInductiveCertificate {
  std::size_t k = 1;
  // By CFA location, over program variables (entries past the end, and locations that
  // are no cutpoint, are ignored; empty: true everywhere).
  std::vector<Term> invariant;
};

struct KInductiveCheck {
  bool valid = false;
  bool undecided = false;   // a query answered unknown
  bool unfinished = false;  // the deadline ended the check
  std::string failure;      // which part failed and why
  std::size_t queries = 0;
  double seconds = 0;
};

namespace k_inductive_detail {

// J(s_d) as a term of u's SSA manager.
inline Term claim(const Cfa& cfa, Unrolling& u, std::size_t d, const KInductiveCertificate& c) {
  ExprManager& s = u.ssa().ssa();
  std::vector<Term> conj{s.not_(u.at_error(d))};
  for (Loc l : u.cutpoints()) {
    if (l >= c.invariant.size() || !c.invariant[l].valid() ||
        c.invariant[l] == cfa.expr_manager()->true_())
      continue;
    conj.push_back(s.imply(u.at(d, l), u.state_term(d, c.invariant[l])));
  }
  return s.conj(conj);
}

}  // namespace k_inductive_detail

inline KInductiveCheck check_k_inductive(const Cfa& cfa, const KInductiveCertificate& cert,
                                         Cvc5Options opts = {}) {
  using k_inductive_detail::claim;
  KInductiveCheck out;
  const auto t0 = std::chrono::steady_clock::now();
  auto finish = [&](KInductiveCheck& o) -> KInductiveCheck& {
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return o;
  };
  if (cert.k == 0) {
    out.failure = "k-induction certificate with k = 0";
    return finish(out);
  }
  if (!cfa.error_location()) {
    out.valid = true;
    return finish(out);
  }
  ExprManager& em = *cfa.expr_manager();
  opts.unsat_cores = false;
  // One query: true if unsat (the part holds); sets the failure otherwise.
  auto holds = [&](Cvc5Solver& solver, Term negated, const std::string& what) {
    ++out.queries;
    const SatResult r = solver.check_assuming(std::span(&negated, 1));
    if (r == SatResult::Unsat) return true;
    out.undecided = r == SatResult::Unknown;
    out.failure = what + (r == SatResult::Unknown ? " undecided (" + solver.reason_unknown() + ")"
                                                  : " fails");
    return false;
  };
  try {
    {  // base
      SsaVars ssa(em);
      ssa.set_deadline(opts.deadline);
      Unrolling u(cfa, ssa, "kbase", cfa.initial_location());
      Cvc5Solver solver(ssa.ssa(), opts);
      solver.assert_(u.at(0, cfa.initial_location()));
      for (std::size_t d = 0; d < cert.k; ++d) {
        if (!holds(solver, ssa.ssa().not_(claim(cfa, u, d, cert)),
                   "base case at depth " + std::to_string(d)))
          return finish(out);
        if (d + 1 < cert.k) solver.assert_(u.next_step());
      }
    }
    {  // step
      SsaVars ssa(em);
      ssa.set_deadline(opts.deadline);
      Unrolling u(cfa, ssa, "kstep");
      Cvc5Solver solver(ssa.ssa(), opts);
      solver.assert_(u.pc_in_range(0));
      for (std::size_t d = 0; d < cert.k; ++d) {
        solver.assert_(claim(cfa, u, d, cert));
        solver.assert_(u.next_step());
      }
      if (!holds(solver, ssa.ssa().not_(claim(cfa, u, cert.k, cert)),
                 "step case for k = " + std::to_string(cert.k)))
        return finish(out);
    }
  } catch (const limit_reached& e) {
    out.unfinished = true;
    out.failure = std::string("certificate check not finished: ") + e.what();
    return finish(out);
  }
  out.valid = true;
  return finish(out);
}

}  // namespace precis
