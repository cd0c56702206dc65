#pragma once
// Certificates of complete unrollings (BMC's SAFE): a depth D such that no execution
// of the cutpoint graph's transition system (smt/unrolling.hpp) takes D steps, and none
// reaches the error location before. Re-proved on the checker's own solver, with a fresh
// SSA manager, knowing nothing of the BMC run that found D:
//
//   errors:    init /\ T_0 /\ ... /\ T_{d-1} /\ pc_d = err   unsat   for every d < D
//   complete:  init /\ T_0 /\ ... /\ T_{D-1}                  unsat
//
// Every execution then ends (at a location without successors, or where an assumption
// fails) within D steps without reaching the error location: the error location is
// unreachable. Unlike an inductive invariant this proof is as large as the unrolling; it
// exists only for programs whose executions all have bounded length (loops with constant
// bounds, no loop at all). A correctness witness cannot state it.
//
// The record of the check is k-induction's (certify/k_inductive.hpp).

#include <chrono>
#include <cstddef>
#include <span>
#include <string>

#include "precis/certify/k_inductive.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/unrolling.hpp"

namespace precis {

struct BoundedCertificate {
  std::size_t depth = 0;  // no execution takes this many steps of the cutpoint graph
};

inline KInductiveCheck check_bounded(const Cfa& cfa, const BoundedCertificate& cert,
                                     Cvc5Options opts = {}) {
  KInductiveCheck out;
  const auto t0 = std::chrono::steady_clock::now();
  auto finish = [&]() -> KInductiveCheck& {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  if (!cfa.error_location()) {
    out.valid = true;
    return finish();
  }
  opts.unsat_cores = false;
  try {
    SsaVars ssa(*cfa.expr_manager());
    ssa.set_deadline(opts.deadline);
    Unrolling u(cfa, ssa, "bounded", cfa.initial_location());
    Cvc5Solver solver(ssa.ssa(), opts);
    auto unsat = [&](std::span<const Term> assumptions, const std::string& what) {
      ++out.queries;
      const SatResult r = solver.check_assuming(assumptions);
      if (r == SatResult::Unsat) return true;
      out.undecided = r == SatResult::Unknown;
      out.failure = what + (r == SatResult::Unknown ? " undecided (" + solver.reason_unknown() + ")"
                                                    : " fails");
      return false;
    };
    solver.assert_(u.at(0, cfa.initial_location()));
    for (std::size_t d = 0; d < cert.depth; ++d) {
      const Term err = u.at_error(d);
      if (u.has_error() && !unsat(std::span(&err, 1), "no error at depth " + std::to_string(d)))
        return finish();
      solver.assert_(u.next_step());
    }
    if (!unsat({}, "no execution of " + std::to_string(cert.depth) + " steps")) return finish();
  } catch (const limit_reached& e) {
    out.unfinished = true;
    out.failure = std::string("certificate check not finished: ") + e.what();
    return finish();
  }
  out.valid = true;
  return finish();
}

}  // namespace precis
