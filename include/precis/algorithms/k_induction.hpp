#pragma once
// k-induction over the cutpoint graph (Sheeran, Singh, Stalmarck, FMCAD 2000), with
// invariants from the abstract interpreter as in "k-induction with continuously refined
// invariants" (Beyer, Dangl, Wendler, CAV 2015; here the invariants are computed once,
// before the induction, by the caller: precis-verify runs octagon AI first).
//
// Two incremental solvers over the unrolling of smt/unrolling.hpp:
//
//   base  (from the initial state, as BMC):  pc_0 = init, T_0, T_1, ...
//   step  (from any state):                  pc_0 a cutpoint, J(s_0), T_0, J(s_1), T_1, ...
//
// with J(s) = pc != err /\ the invariants (certify/k_inductive.hpp). For k = 1, 2, ...:
// the base case asks for an error at depth k - 1 (sat: a counterexample, replayed as in
// BMC: UNSAFE); the step case asks whether k states in J can be followed by one outside
// (unsat: J is k-inductive, and with the base case up to k - 1 it holds everywhere). The
// step case's solver keeps its assertions: going from k to k + 1 adds J(s_k) and T_k.
//
// SAFE only certified: the k-inductive claim goes to certify/k_inductive.hpp, which
// proves base and step on solvers of its own (nothing of this run is reused but the CFA
// and the invariants it re-proves). A claim it does not prove makes the run UNKNOWN with
// the checker's reason. UNKNOWN also when max_k or a limit ends the run ("k-induction up
// to k = n: ...").
//
// Statistics: "kind k", "kind base queries", "kind step queries", "kind invariant
// cutpoints" (cutpoints whose invariant is not true), "kind solver time s", and the
// certificate check's "certificate queries", "certificate time s", "certificate valid".

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "precis/algorithms/bmc.hpp"
#include "precis/certify/certificate.hpp"
#include "precis/certify/k_inductive.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/unrolling.hpp"

namespace precis {

struct KInductionOptions {
  std::size_t max_k = 0;  // 0: until a limit
  // No unsat cores (they made BMC 7x slower: algorithms/bmc.hpp).
  Cvc5Options solver{.logic = "ALL", .timeout_ms = 0, .unsat_cores = false};
  // By CFA location (empty or true: none): invariants the step case assumes and the
  // certificate re-proves, e.g. a checked abstract interpretation's.
  std::vector<Term> invariant;
  // Called after each k (k, elapsed seconds): progress lines.
  std::function<void(std::size_t, double)> progress;
};

class KInduction {
 public:
  explicit KInduction(const Cfa& cfa, KInductionOptions opts = {})
      : cfa_(&cfa), opts_(std::move(opts)) {}

  // The Algorithm shape (core/concepts.hpp): the run under these limits.
  VerificationResult run(const Limits& limits) { return run(&limits); }
  VerificationResult run(const Limits* limits = nullptr) {
    VerificationResult r;
    const auto started = std::chrono::steady_clock::now();
    try {
      run_loop(r, limits);
    } catch (const limit_reached& e) {
      r.verdict = Verdict::Unknown;
      r.reason = std::string(e.what()) + "; k-induction up to k = " + std::to_string(k_) +
                 ", no error path up to depth " + std::to_string(base_checked_);
    }
    auto& x = r.stats.extra;
    x["kind k"] = static_cast<double>(k_);
    x["kind base queries"] = static_cast<double>(base_queries_);
    x["kind step queries"] = static_cast<double>(step_queries_);
    x["kind solver time s"] = solver_seconds_;
    x["kind invariant cutpoints"] = static_cast<double>(invariant_points_);
    r.stats.time_total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  }

  // After SAFE: the certificate the checker proved.
  [[nodiscard]] const KInductiveCertificate& certificate() const noexcept { return cert_; }

  // After SAFE at k = 1: the claim as an ordinary certificate (the invariants at the
  // cutpoints, nothing at the error location), which certify/certificate_checker.hpp
  // proves block by block and SV-COMP correctness witnesses are written from. nullopt
  // for k > 1: a k-inductive claim is no inductive invariant.
  [[nodiscard]] std::optional<Certificate> inductive_certificate() const {
    if (cert_.k != 1 || !step_) return std::nullopt;
    ExprManager& em = *cfa_->expr_manager();
    const std::size_t n = cfa_->num_locations();
    Certificate c;
    c.point.assign(n, false);
    c.disjuncts.assign(n, {});
    for (Loc l : step_->cutpoints()) {
      c.point[l] = true;
      if (l == cfa_->error_location()) continue;
      const Term t = l < cert_.invariant.size() && cert_.invariant[l].valid() ? cert_.invariant[l]
                                                                              : em.true_();
      if (t != em.false_()) c.disjuncts[l].push_back(t);
    }
    return c;
  }

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
    cert_.invariant = opts_.invariant;
    base_ssa_ = std::make_unique<SsaVars>(em);
    base_ssa_->set_deadline(so.deadline);  // block encoding polls it
    base_ = std::make_unique<Unrolling>(cfa, *base_ssa_, "kbmc", cfa.initial_location());
    step_ssa_ = std::make_unique<SsaVars>(em);
    step_ssa_->set_deadline(so.deadline);
    step_ = std::make_unique<Unrolling>(cfa, *step_ssa_, "kind");
    for (Loc l : step_->cutpoints())
      if (l < cert_.invariant.size() && cert_.invariant[l].valid() &&
          cert_.invariant[l] != em.true_())
        ++invariant_points_;
    if (!base_->has_error()) {
      r.verdict = Verdict::Unknown;
      r.reason = "the error location is not reachable in the cutpoint graph";
      return;
    }
    base_solver_ = std::make_unique<Cvc5Solver>(base_ssa_->ssa(), so);
    step_solver_ = std::make_unique<Cvc5Solver>(step_ssa_->ssa(), so);
    base_solver_->assert_(base_->at(0, cfa.initial_location()));
    step_solver_->assert_(step_->pc_in_range(0));
    for (std::size_t k = 1;; ++k) {
      if (limits != nullptr) limits->check();
      if (opts_.max_k != 0 && k > opts_.max_k) {
        r.verdict = Verdict::Unknown;
        r.reason = "k limit of " + std::to_string(opts_.max_k) +
                   " reached: the claim is not k-inductive for any k up to it";
        return;
      }
      k_ = k;
      // Base: no error at depth k - 1 (the error stutters: none at any depth below).
      if (k >= 2) base_solver_->assert_(base_->next_step());
      const Term err = base_->at_error(k - 1);
      ++base_queries_;
      const SatResult b = timed([&] { return base_solver_->check_assuming(std::span(&err, 1)); });
      if (b == SatResult::Sat) {
        unrolling_counterexample(cfa, *base_, *base_solver_, k - 1, "k-induction's base case", r);
        return;
      }
      if (b == SatResult::Unknown) {
        r.reason = "the base case at depth " + std::to_string(k - 1) + " is undecided (" +
                   base_solver_->reason_unknown() + ")";
        return;
      }
      base_checked_ = k - 1;
      // Step: J(s_0 .. s_{k-1}) and T_0 .. T_{k-1}; can s_k leave J?
      step_solver_->assert_(k_inductive_detail::claim(cfa, *step_, k - 1, cert_));
      step_solver_->assert_(step_->next_step());
      const Term leave = step_ssa_->ssa().not_(k_inductive_detail::claim(cfa, *step_, k, cert_));
      ++step_queries_;
      const SatResult s = timed([&] { return step_solver_->check_assuming(std::span(&leave, 1)); });
      if (opts_.progress)
        opts_.progress(k, limits != nullptr ? limits->elapsed() : solver_seconds_);
      if (s == SatResult::Unknown) {
        r.reason = "the step case for k = " + std::to_string(k) + " is undecided (" +
                   step_solver_->reason_unknown() + ")";
        return;
      }
      if (s == SatResult::Unsat) {
        cert_.k = k;
        certify(r, so);
        return;
      }
    }
  }

  // The k-inductive claim on the checker's own solvers: SAFE only if it holds.
  void certify(VerificationResult& r, const Cvc5Options& so) {
    Cvc5Options co = so;
    co.timeout_ms = 0;
    const KInductiveCheck c = check_k_inductive(*cfa_, cert_, co);
    auto& x = r.stats.extra;
    x["certificate queries"] = static_cast<double>(c.queries);
    x["certificate time s"] = c.seconds;
    x["certificate valid"] = c.valid ? 1 : 0;
    x["certificate k"] = static_cast<double>(cert_.k);
    if (!c.valid) {
      r.verdict = Verdict::Unknown;
      r.reason =
          c.unfinished
              ? c.failure + " (k-induction had found SAFE at k = " + std::to_string(cert_.k) + ")"
              : "k-inductive certificate check " +
                    std::string(c.undecided ? "undecided: " : "failed: ") + c.failure;
      return;
    }
    r.verdict = Verdict::Safe;
    r.certified = true;
    r.reason = "the error location is unreachable: " +
               std::string(invariant_points_ > 0 ? "with the invariants, " : "") + "the claim is " +
               std::to_string(cert_.k) +
               "-inductive (checked by the k-inductive certificate checker)";
  }

  template <class F>
  SatResult timed(F&& f) {
    return timed_query(solver_seconds_, std::forward<F>(f));
  }

  const Cfa* cfa_;
  KInductionOptions opts_;
  KInductiveCertificate cert_;
  std::unique_ptr<SsaVars> base_ssa_, step_ssa_;
  std::unique_ptr<Unrolling> base_, step_;
  std::unique_ptr<Cvc5Solver> base_solver_, step_solver_;
  std::size_t k_ = 0;
  std::size_t base_checked_ = 0;
  std::size_t base_queries_ = 0;
  std::size_t step_queries_ = 0;
  std::size_t invariant_points_ = 0;
  double solver_seconds_ = 0;
};

}  // namespace precis
