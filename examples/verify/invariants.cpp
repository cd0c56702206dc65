// --invariants: see invariants.hpp.
#include "invariants.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "precis/core/teardown.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/k_induction.hpp"
#include "precis/certify/certificate.hpp"
#include "precis/certify/certify.hpp"
#include "precis/certify/invariant_check.hpp"
#include "precis/cfa/strengthen.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "run_support.hpp"
#endif

namespace precis_cli {

#ifdef PRECIS_HAVE_CVC5
namespace {

struct SeedInvariant {
  std::vector<precis::Term> inv;  // per location; empty when none could be proved
  bool excludes_error = false;
  std::string note;  // why there is none
};

// The abstract interpretation with D and the solver's check that its result is
// inductive, within `budget_s` of the run's time.
template <class D>
SeedInvariant seed(const Model& model, const RunContext& ctx, double budget_s,
                   precis::VerificationResult& stats) {
  const precis::Cfa& cfa = model.cfa;
  precis::ExprManager& em = *cfa.expr_manager();
  precis::Limits l = ctx.limits;
  l.start = precis::Limits::clock::now();
  l.time_limit_s = std::min(budget_s, ctx.limits.remaining_s());
  precis::AbstractInterpreterOptions o;
  o.widen_delay = ctx.cfg.widen_every;
  precis::AbstractInterpreter<D> ai(cfa, numeric_domain<D>(model, ctx.cfg, true), o);
  const auto t0 = std::chrono::steady_clock::now();
  auto res = ai.run(&l);
  SeedInvariant out;
  auto& x = stats.stats.extra;
  x["invariants ai time s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!res.complete) {
    out.note = "abstract interpretation did not finish: " + res.reason;
    return out;
  }
  std::vector<precis::Term> inv;
  for (const auto& v : res.values) inv.push_back(to_formula(v, em));
  const auto err = cfa.error_location();
  out.excludes_error = err && ai.domain().is_bottom(res.values[*err]);
  precis::Cvc5Options so = solver_options(ctx);
  so.deadline = precis::Deadline::of(l);
  const auto t1 = std::chrono::steady_clock::now();
  precis::InvariantCheck c;
  try {
    c = precis::check_invariant(
        cfa, [&](precis::Loc loc) { return inv[loc]; }, so, {}, out.excludes_error);
  } catch (const precis::limit_reached& e) {
    c.failure = e.what();
  }
  x["invariants check time s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  x["invariants check queries"] = static_cast<double>(c.queries);
  if (!c.inductive) {
    out.note = "the invariant was not proved inductive: " + c.failure;
    out.excludes_error = false;
    return out;
  }
  out.inv = std::move(inv);
  return out;
}

// The zone invariant for "zone", the octagon invariant otherwise (--invariants).
SeedInvariant seed_named(const std::string& domain, const Model& model, const RunContext& ctx,
                         double budget_s, precis::VerificationResult& stats) {
  return domain == "zone" ? seed<precis::ZoneDomain>(model, ctx, budget_s, stats)
                          : seed<precis::OctagonDomain>(model, ctx, budget_s, stats);
}

}  // namespace

Outcome run_with_invariants(const AnalysisEntry& entry, const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  precis::VerificationResult pre;
  // A tenth of the time (the AI is fast; the inductiveness check is one query per edge).
  const double budget = std::min(ctx.limits.remaining_s() / 10, 30.0);
  const SeedInvariant s = seed_named(cfg.invariants, model, ctx, budget, pre);
  const precis::Cfa& cfa = model.cfa;
  precis::ExprManager& em = *cfa.expr_manager();
  const auto merge_stats = [&](precis::VerificationResult& r) {
    for (const auto& [k, v] : pre.stats.extra) r.stats.extra[k] = v;
  };
  if (!s.inv.empty() && s.excludes_error) {
    // The invariant is a proof by itself (checked with the error's exclusion).
    Outcome o;
    o.result.verdict = precis::Verdict::Safe;
    o.result.certified = true;
    o.result.reason = "the " + cfg.invariants +
                      " invariant is inductive and excludes the error location (checked by the "
                      "solver; --invariants)";
    precis::Certificate cert;
    cert.point.assign(cfa.num_locations(), true);
    cert.disjuncts.assign(cfa.num_locations(), {});
    for (precis::Loc l = 0; l < cfa.num_locations(); ++l)
      if (s.inv[l] != em.false_()) cert.disjuncts[l].push_back(s.inv[l]);
    merge_stats(o.result);
    // The invariant check was the certificate check (the same solver proof).
    auto& x = o.result.stats.extra;
    x["certificate points"] = static_cast<double>(cert.reached_points());
    x["certificate disjuncts"] = static_cast<double>(cert.total_disjuncts());
    x["certificate queries"] = x["invariants check queries"];
    x["certificate time s"] = x["invariants check time s"];
    x["certificate valid"] = 1;
    o.certificate = std::move(cert);
    o.result.stats.time_total = ctx.limits.elapsed();
    return o;
  }
  if (s.inv.empty()) {
    Outcome o = entry.run(model, ctx);
    merge_stats(o.result);
    o.result.stats.extra["invariants used"] = 0;
    if (!s.note.empty()) o.result.stats.lists["invariants"].push_back(s.note);
    return o;
  }
  precis::StrengthenedCfa st = precis::strengthen_with_invariant(cfa, s.inv);
  // The strengthened model outlives the report: counterexamples point into its edges.
  auto strong = std::make_shared<Model>(
      Model{std::move(st.cfa), model.is_task, model.expected, model.c_file, model.lp64});
  if (precis::DeferredTeardown::active() != nullptr) {
    precis::defer_teardown(strong);
  } else {
    static std::vector<std::shared_ptr<Model>> kept;  // no teardown policy: until exit
    kept.push_back(strong);
  }
  Outcome o = entry.run(*strong, ctx);
  merge_stats(o.result);
  auto& x = o.result.stats.extra;
  x["invariants used"] = 1;
  x["invariants strengthened locations"] = static_cast<double>(st.locations);
  x["invariants strengthened edges"] = static_cast<double>(st.edges);
  if (o.certificate)  // valid for the original CFA with the invariant conjoined
    precis::conjoin_invariant(*o.certificate, s.inv, em);
  return o;
}

Outcome run_kind(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  precis::KInductionOptions o;
  o.solver = solver_options(ctx);
  o.solver.timeout_ms = 0;  // one query may use the run's time (the deadline bounds it)
  o.solver.unsat_cores = false;
  precis::VerificationResult pre;
  std::string note;
  {
    // Invariants for the step case: the octagon AI by default (--invariants zone: zones),
    // proved inductive, with a tenth of the time.
    const double budget = std::min(ctx.limits.remaining_s() / 10, 30.0);
    const SeedInvariant s = seed_named(cfg.invariants, model, ctx, budget, pre);
    o.invariant = s.inv;
    note = s.note;
  }
  if (!cfg.quiet)
    o.progress = [](std::size_t k, double t) {
      std::fprintf(stderr, "[kind] k = %zu refuted, %.1f s\n", k, t);
    };
  auto kind = std::make_shared<precis::KInduction>(model.cfa, std::move(o));
  precis::defer_teardown(kind);  // freed after the report (core/teardown.hpp)
  Outcome out{kind->run(&ctx.limits), std::nullopt};
  // A 1-inductive proof is an ordinary certificate too: the certificate checker proves it
  // once more, and witnesses are written from it.
  if (out.result.verdict == precis::Verdict::Safe)
    if (std::optional<precis::Certificate> cert = kind->inductive_certificate()) {
      precis::certify_safe(model.cfa, *cert, out.result, solver_options(ctx));
      out.certificate = std::move(cert);
    }
  for (const auto& [k, v] : pre.stats.extra) out.result.stats.extra[k] = v;
  if (!note.empty()) out.result.stats.lists["invariants"].push_back(note);
  out.result.stats.time_total = ctx.limits.elapsed();
  return out;
}

#else

Outcome run_with_invariants(const AnalysisEntry& entry, const Model& model, const RunContext& ctx) {
  return entry.run(model, ctx);
}

#endif

}  // namespace precis_cli
