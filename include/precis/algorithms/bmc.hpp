#pragma once
// Bounded model checking (Biere, Cimatti, Clarke, Zhu, TACAS 1999) over the cutpoint
// graph, incrementally on one solver: the program unrolled block by block
// (smt/unrolling.hpp), the error queried at growing depths until the time limit.
//
//   assert pc_0 = init
//   for d = 0, 1, 2, ...:
//     check(pc_d = err)        sat: a counterexample (replayed)
//     at powers of two: check()    unsat: no execution takes d steps (complete)
//     assert T_d
//
// The query at d asks for error paths of exactly d steps (the error location has no
// successor in the unrolling), so every depth is asked; the assumption pc_d = err makes
// unit propagation fix most of the path, which keeps each query cheap. Measured on a
// counter 1,000 iterations deep (bench/README.md): 8.8 s to the counterexample; a fresh
// solver per depth (so that cvc5 could substitute the SSA equalities away) did not
// finish in 300 s, an error location that stutters (one query for every depth up to d,
// asked at geometric checkpoints) took 190-240 s, unsat cores on 63 s.
//
// Verdicts:
//  - UNSAFE only with a counterexample: the blocks the model selects, the route through
//    each, the inputs from the model, replayed by the concrete interpreter over exact
//    integers. A model that does not replay ends the run UNKNOWN (never a wrong
//    UNSAFE).
//  - SAFE when the unrolling is complete (no execution takes d steps, and none reached the
//    error) and the bounded certificate (certify/bounded.hpp) re-proves that on the
//    checker's own solver; a check that fails or does not finish leaves the run UNKNOWN.
//    Only programs whose executions all have bounded length get there.
//  - Otherwise UNKNOWN when a limit ends the run (time through the solver's deadline,
//    memory, max_depth), with the depth reached: "no error path up to depth d".
//
// Statistics: "bmc depth" (steps unrolled), "bmc checked depth" (the deepest depth
// proved free of errors), "bmc queries", "bmc solver time s", "bmc blocks", "bmc
// cutpoints".

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "precis/certify/bounded.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/path/error_path.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/unrolling.hpp"

namespace precis {

struct BmcOptions {
  std::size_t max_depth = 0;  // steps of the cutpoint graph; 0: until a limit
  // No unsat cores: producing them made BMC 7x slower (a counter 1,000 deep: 63 s -> 8.8 s).
  Cvc5Options solver{.logic = "ALL", .timeout_ms = 0, .unsat_cores = false};
  // Called at depths 2^i and every 100 (depth, queries so far, elapsed seconds).
  std::function<void(std::size_t, std::size_t, double)> progress;
};

// After Sat of "pc_d = err" on a solver holding pc_0 = init and T_0 .. T_{d-1} of `u`:
// the path the model selects, replayed by the concrete interpreter. UNSAFE with the
// counterexample when it replays, else UNKNOWN with the reason (never UNSAFE without a
// replay). `who` names the algorithm in the reason.
template <SmtSolver S>
void unrolling_counterexample(const Cfa& cfa, Unrolling& u, S& solver, std::size_t d,
                              const std::string& who, VerificationResult& r) {
  std::string why;
  auto w = u.path_from_model(solver, d, why);
  if (!w) {
    r.verdict = Verdict::Unknown;
    r.reason = who + " found an error path at depth " + std::to_string(d) + ", but " + why;
    return;
  }
  const ErrorPath path{w->start, w->steps};
  const auto ops = path.operations();
  const PathInputs in{w->initial, w->havoc, w->arrays};
  ReplayResult rep = replay(cfa.exprs(), ops, in, ReplayRecord::Changes);
  if (!rep.ok) {
    r.verdict = Verdict::Unknown;
    r.reason = "the inputs " + who + " found for the error path at depth " + std::to_string(d) +
               " do not replay: " + rep.reason;
    return;
  }
  r.verdict = Verdict::Unsafe;
  r.reason = "a feasible path to the error location at depth " +
             std::to_string(w->block_end.size()) + " of the cutpoint graph (" +
             std::to_string(w->steps.size()) + " CFA edges; " + who + ", replayed)";
  r.counterexample = make_counterexample(cfa, path, in, std::move(rep));
}

// Runs a solver query f() and adds its wall time to `seconds` (BMC's and k-induction's
// statistics).
template <class F>
SatResult timed_query(double& seconds, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  const SatResult res = f();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

class Bmc {
 public:
  explicit Bmc(const Cfa& cfa, BmcOptions opts = {}) : cfa_(&cfa), opts_(std::move(opts)) {}

  // The Algorithm shape (core/concepts.hpp): the run under these limits.
  VerificationResult run(const Limits& limits) { return run(&limits); }
  VerificationResult run(const Limits* limits = nullptr) {
    VerificationResult r;
    const auto started = std::chrono::steady_clock::now();
    auto& x = r.stats.extra;
    try {
      run_loop(r, limits);
    } catch (const limit_reached& e) {
      r.verdict = Verdict::Unknown;
      r.reason = std::string(e.what()) + "; no error path up to depth " + std::to_string(checked_) +
                 " (" + std::to_string(depth_) + " unrolled)";
    }
    x["bmc depth"] = static_cast<double>(depth_);
    x["bmc checked depth"] = static_cast<double>(checked_);
    x["bmc queries"] = static_cast<double>(queries_);
    x["bmc solver time s"] = solver_seconds_;
    if (unrolling_) {
      x["bmc blocks"] = static_cast<double>(unrolling_->graph().blocks().size());
      x["bmc cutpoints"] = static_cast<double>(unrolling_->cutpoints().size());
    }
    r.stats.time_total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  }

  // Whether BMC proved the unrolling complete (UNKNOWN for want of a certificate).
  [[nodiscard]] bool complete() const noexcept { return complete_; }
  [[nodiscard]] std::size_t checked_depth() const noexcept { return checked_; }

 private:
  void run_loop(VerificationResult& r, const Limits* limits) {
    const Cfa& cfa = *cfa_;
    if (cfa.num_locations() == 0 || !cfa.error_location()) {
      r.verdict = Verdict::Safe;
      r.reason = "the program has no error location";
      return;
    }
    ExprManager& em = *cfa.expr_manager();
    Cvc5Options so = opts_.solver;
    if (limits != nullptr && so.deadline.none()) so.deadline = Deadline::of(*limits);
    ssa_ = std::make_unique<SsaVars>(em);
    ssa_->set_deadline(so.deadline);  // encoding a block of 20,000 edges polls it
    unrolling_ = std::make_unique<Unrolling>(cfa, *ssa_, "bmc", cfa.initial_location());
    if (!unrolling_->has_error()) {
      r.verdict = Verdict::Unknown;
      r.reason = "the error location is not reachable in the cutpoint graph";
      complete_ = true;
      return;
    }
    solver_ = std::make_unique<Cvc5Solver>(ssa_->ssa(), so);
    solver_->assert_(unrolling_->at(0, cfa.initial_location()));
    for (std::size_t d = 0;; ++d) {
      if (limits != nullptr) limits->check();
      if (check_depth(d, r)) return;
      if (opts_.progress && ((d & (d - 1)) == 0 || d % 100 == 0))
        opts_.progress(d, queries_, limits != nullptr ? limits->elapsed() : solver_seconds_);
      if (opts_.max_depth != 0 && d >= opts_.max_depth) {
        r.verdict = Verdict::Unknown;
        r.reason = "depth limit of " + std::to_string(opts_.max_depth) +
                   " reached; no error path up to depth " + std::to_string(checked_);
        return;
      }
      solver_->assert_(unrolling_->next_step());
      depth_ = d + 1;
    }
  }

  // The queries at depth d: true when the run ends (r is set).
  bool check_depth(std::size_t d, VerificationResult& r) {
    const Term err = unrolling_->at_error(d);
    const SatResult e = timed([&] { return solver_->check_assuming(std::span(&err, 1)); });
    if (e == SatResult::Unknown) {
      r.reason = "the BMC query at depth " + std::to_string(d) + " is undecided (" +
                 solver_->reason_unknown() + ")";
      return true;
    }
    if (e == SatResult::Sat) return counterexample(d, r);
    checked_ = d;
    // No error within d steps; does any execution still run at step d? Asked at powers
    // of two only (a query as hard as the error's): a program whose executions all end
    // within n steps is found complete by depth 2n.
    if ((d & (d - 1)) != 0) return false;
    const SatResult any = timed([&] { return solver_->check(); });
    if (any == SatResult::Unsat) {
      complete_ = true;
      certify(d, r);
      return true;
    }
    return false;
  }

  // The complete unrolling on the checker's own solver: SAFE only if it holds.
  void certify(std::size_t d, VerificationResult& r) {
    const KInductiveCheck c = check_bounded(*cfa_, BoundedCertificate{d}, solver_->options());
    auto& x = r.stats.extra;
    x["certificate queries"] = static_cast<double>(c.queries);
    x["certificate time s"] = c.seconds;
    x["certificate valid"] = c.valid ? 1 : 0;
    x["certificate depth"] = static_cast<double>(d);
    const std::string found = "the unrolling is complete at depth " + std::to_string(d) +
                              " (no execution takes more steps, none reaches the error)";
    if (!c.valid) {
      r.verdict = Verdict::Unknown;
      r.reason = found + ", but the bounded certificate check " +
                 (c.unfinished  ? "did not finish: "
                  : c.undecided ? "is undecided: "
                                : "failed: ") +
                 c.failure;
      return;
    }
    r.verdict = Verdict::Safe;
    r.certified = true;
    r.reason = "the error location is unreachable: " + found +
               " (checked by the bounded certificate checker)";
  }

  bool counterexample(std::size_t d, VerificationResult& r) {
    unrolling_counterexample(*cfa_, *unrolling_, *solver_, d, "BMC", r);
    return true;
  }

  template <class F>
  SatResult timed(F&& f) {
    ++queries_;
    return timed_query(solver_seconds_, std::forward<F>(f));
  }

  const Cfa* cfa_;
  BmcOptions opts_;
  std::unique_ptr<SsaVars> ssa_;
  std::unique_ptr<Unrolling> unrolling_;
  std::unique_ptr<Cvc5Solver> solver_;
  std::size_t depth_ = 0;
  std::size_t checked_ = 0;
  std::size_t queries_ = 0;
  double solver_seconds_ = 0;
  bool complete_ = false;
};

}  // namespace precis
