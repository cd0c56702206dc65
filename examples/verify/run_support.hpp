#pragma once
// What the analyses of the registry (analyses.cpp) are run with: the CEGAR loop
// configured from the options (verify), the SMT options from the command line, the
// product with value enumeration (run_product), abstract interpretation alone
// (interpret) and refined by interpolants (run_vinta).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>

#include "analyses.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/teardown.hpp"
#include "precis/io/arg_dot.hpp"
#include "precis/refine/refinement_selection.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/bmc.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certify.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/strategy_product.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/strategy_product_refiner.hpp"
#include "precis/refine/synergy_refiner.hpp"
#include "precis/refine/value_limit_refiner.hpp"
#endif

namespace precis_cli {

#ifdef PRECIS_HAVE_CVC5
// ---- SMT options from the command line ------------------------------------------------

// Every solver call gets min(--solver-timeout, the time left of the run).
inline precis::Cvc5Options solver_options(const RunContext& ctx) {
  precis::Cvc5Options o;
  o.timeout_ms = static_cast<std::uint32_t>(ctx.cfg.solver_timeout * 1000);
  o.deadline = precis::Deadline::of(ctx.limits);
  return o;
}

// --certify-candidate: what the certificate checker tries before the certificate.
inline precis::CheckOptions check_options(const Config& cfg) {
  precis::CheckOptions o;
  if (cfg.certify_candidate == "hull") o.candidate = precis::Candidate::Hull;
  return o;
}

inline precis::PredicateRefinerOptions refiner_options(const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  precis::PredicateRefinerOptions o;
  o.solver = solver_options(ctx);
  o.split = cfg.split == "whole"       ? precis::PredicateSplit::Whole
            : cfg.split == "conjuncts" ? precis::PredicateSplit::Conjuncts
                                       : precis::PredicateSplit::Atoms;
  auto& i = o.interpolation;
  if (cfg.interpolation == "farkas") i.core_wp = false;
  if (cfg.interpolation == "core-wp") i.farkas = false;
  if (cfg.interpolation == "cvc5") i.farkas = i.core_wp = false, i.cvc5 = true;
  return o;
}

inline precis::PredicateOptions predicate_options(const RunContext& ctx) {
  precis::PredicateOptions o;
  o.boolean_max_predicates = ctx.cfg.bool_max_preds;
  o.solver = solver_options(ctx);
  return o;
}

// --synergy and --threshold (synergy paper): NewST / NewSP and the cluster size limits
// (paper: the section 4.2.3 values, 13 for ST and 17 for SP; off; or one N for both).
inline precis::SynergyRefinerOptions synergy_options(const Config& cfg) {
  precis::SynergyRefinerOptions o;
  o.new_st = cfg.synergy == "st" || cfg.synergy == "st+sp";
  o.new_sp = cfg.synergy == "sp" || cfg.synergy == "st+sp";
  if (cfg.threshold == "off") {
    o.threshold_st = o.threshold_sp = 0;
  } else if (cfg.threshold != "paper") {
    o.threshold_st = o.threshold_sp = std::stoul(cfg.threshold);
  }
  return o;
}

inline precis::BlockPolicy block_policy(const Config& cfg) {
  if (cfg.block == "loop-heads") return precis::BlockPolicy::LoopHeads;
  if (cfg.block == "sbe") return precis::BlockPolicy::EveryLocation;
  return precis::BlockPolicy::FunctionEntriesAndLoopHeads;
}

inline precis::AbeOptions abe_options(const RunContext& ctx) {
  return precis::AbeOptions{block_policy(ctx.cfg), predicate_options(ctx)};
}

inline precis::BlockRefinerOptions block_refiner_options(const RunContext& ctx) {
  precis::BlockRefinerOptions o;
  o.block = block_policy(ctx.cfg);
  o.predicate = refiner_options(ctx);
  o.cvc5_sequence = ctx.cfg.interpolation == "cvc5";
  return o;
}

// expl+pred: --value-limit values at level 0 (0: no limit). A variable the explicit
// refiner needs beyond its limit gets one round of predicates (they prove i = j of two
// counters at once); if explicit values still need it, it goes one level up at every
// further refusal (the predicates of a counter bounded by a constant would unroll the
// loop), up to 64 * 8^4 = 262,144 values.
inline std::shared_ptr<precis::ValueLimits> value_limits(const Config& cfg) {
  if (cfg.value_limit == 0) return nullptr;
  return std::make_shared<precis::ValueLimits>(precis::ValueLimitOptions{
      .base = cfg.value_limit, .escalation = 8, .patience = 1, .max_level = 4});
}
#endif

// ---- the CEGAR loop -------------------------------------------------------------------

// CEGAR with the analysis and refiner on the model, configured by the options; writes
// the final ARG for --arg-dot. With cvc5, a SAFE verdict is certified (--certify).
template <class Analysis, class Refiner = precis::default_refiner_t<Analysis>>
Outcome verify(const Model& model, const RunContext& ctx, Analysis analysis, Refiner refiner) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  precis::CegarOptions o;
  o.started = ctx.limits.start;
  o.memory_limit_mb = cfg.memory_limit_mb;
  o.order = precis::parse_search_order(cfg.order != "auto"                              ? cfg.order
                                       : cfg.analysis.find("-abe") != std::string::npos ? "rpo"
                                                                                        : "bfs");
  o.granularity = precis::parse_granularity(cfg.granularity);
  o.prune = !cfg.restart;
  o.time_limit_s = cfg.time_limit;
  o.max_refinements = cfg.max_refinements;
  o.max_arg_nodes = cfg.max_nodes;
  if (cfg.baseline) {
    o.track_all = true;
    o.refine = false;
  }
  if (!cfg.quiet) {
    o.progress = [](const precis::Statistics& s, double t) {
      std::fprintf(stderr, "[%8.2fs] refinements %zu, ARG nodes %zu, expanded %zu\n", t,
                   s.refinements, s.arg_nodes, s.expanded_nodes);
    };
  }
  // Parked at the end (core/teardown.hpp): the report need not wait for the ARG and the
  // solvers to be freed.
  auto cegar_owner = std::make_shared<precis::CEGAR<Analysis, Refiner>>(cfa, o, std::move(analysis),
                                                                        std::move(refiner));
  precis::defer_teardown(cegar_owner);
  auto& cegar = *cegar_owner;
  // Refinement selection ranks prefixes whose increments the precision already has last.
  precis::connect_precision(cegar.refiner(), cegar.current_precision());
  precis::VerificationResult r = cegar.run();
#ifdef PRECIS_HAVE_CVC5
  // SAFE stands only with a certificate the independent checker proves (certify/).
  std::optional<precis::Certified> certified;
  if (cfg.certify == "on")
    certified = precis::certify_safe(cfa, cegar.analysis(), cegar.arg(), r, solver_options(ctx),
                                     check_options(cfg));
#endif

  if (ctx.arg_dot) {
    std::ostream& f = *ctx.arg_dot;
    precis::write_arg_dot(
        f, cegar.arg(), cfa,
        [&](std::ostream& os, const auto& e) {
          if constexpr (requires { precis::print(os, e, cfa.exprs()); })
            precis::print(os, e, cfa.exprs());
        },
        &ctx.limits);
    if (auto* file = dynamic_cast<std::ofstream*>(&f)) file->close();
    if (!f) throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot write the ARG DOT file");
  }
#ifdef PRECIS_HAVE_CVC5
  if (certified) return {std::move(r), std::move(certified->certificate)};
#endif
  return {std::move(r), std::nullopt};
}

#ifdef PRECIS_HAVE_CVC5

// The explicit x predicate product with value enumeration (product-abstraction paper,
// chapter 3): STATE (Alg. 1), PATH (Alg. 2), ARG (Alg. 3) strategies.
template <class Prod>
Outcome run_product(const Model& model, const RunContext& ctx) {
  const precis::Cfa& cfa = model.cfa;
  const precis::Deadline deadline = precis::Deadline::of(ctx.limits);
  auto control = std::make_shared<precis::StrategyControl>(ctx.cfg.prod_k);
  return verify(
      model, ctx,
      Prod(cfa, control, precis::PredCart(cfa, predicate_options(ctx)), solver_options(ctx)),
      precis::StrategyProductRefiner<>(cfa, control, precis::ExplicitRefiner(cfa, deadline),
                                       precis::PredicateRefiner(cfa, refiner_options(ctx)),
                                       solver_options(ctx)));
}

// Abstract interpretation alone (ai-box, ai-boxes): SAFE only with a
// solver-checked inductive invariant (certify/invariant_check.hpp), else UNKNOWN.
template <class D>
Outcome interpret(const Model& model, const RunContext& ctx, D domain) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  precis::AbstractInterpreterOptions o;
  o.widen_delay = cfg.widen_every;
  precis::AbstractInterpreter<D> ai(cfa, std::move(domain), o);
  const auto started = std::chrono::steady_clock::now();
  precis::AbstractInterpretation<typename D::element> res;
  try {
    res = ai.run(&ctx.limits);
  } catch (const precis::limit_reached& e) {
    // A domain operation that ran out of time (polyhedra: inside PPL): its elements are
    // lost, the run is UNKNOWN with the limit as the reason (res.complete stays false).
    res.reason = e.what();
  }
  precis::VerificationResult r;
  auto& x = r.stats.extra;
  x["ai posts"] = static_cast<double>(res.posts);
  x["ai updates"] = static_cast<double>(res.updates);
  x["ai widenings"] = static_cast<double>(res.widenings);
  x["ai narrowing steps"] = static_cast<double>(res.narrowing_steps);
  x["ai time s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto err = cfa.error_location();
  if (!res.complete) {
    r.reason = res.reason;
  } else if (err && !ai.domain().is_bottom(res.values[*err])) {
    r.reason = "abstract interpretation cannot exclude the error location (" + cfg.analysis +
               " does not refine; the widened invariant is too weak)";
  } else {
    precis::ExprManager& em = *cfa.expr_manager();
    precis::Certificate cert;
    cert.point.assign(cfa.num_locations(), true);
    cert.disjuncts.assign(cfa.num_locations(), {});
    for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
      const precis::Term t = to_formula(res.values[l], em);
      if (t != em.false_()) cert.disjuncts[l].push_back(t);
    }
    r.verdict = precis::Verdict::Safe;
    r.reason = "the invariant is inductive and excludes the error location (checked by the solver)";
    precis::certify_safe(cfa, cert, r, solver_options(ctx));
    if (r.certified) {
      // The invariant at the heads of the weak topological order (the cutpoints).
      auto& listed = r.stats.lists["invariant"];
      for (precis::Loc h : ai.wto().heads())
        listed.push_back(cfa.name(h) + ": " + precis::to_string(cert.invariant(h, em), em));
    }
    r.stats.time_total = ctx.limits.elapsed();
    return {std::move(r), std::move(cert)};
  }
  r.stats.time_total = ctx.limits.elapsed();
  return {std::move(r), std::nullopt};
}

// VINTA (VINTA paper, Fig. 3): abstract interpretation over the cutpoint graph refined by DAG
// interpolants (vinta-*: guided by the AI labels; ufo-*: unguided). SAFE only with the
// solver-checked invariant per cutpoint; UNSAFE only with a replayed counterexample.
template <class D>
Outcome run_vinta(const Model& model, const RunContext& ctx, D domain,
                  precis::VintaRefinement how) {
  precis::VintaOptions o;
  o.refinement = how;
  o.widen_every = ctx.cfg.widen_every;
  o.solver = solver_options(ctx);
  o.cvc5_interpolation = ctx.cfg.interpolation == "cvc5";
  o.progress = !ctx.cfg.quiet;
  auto vinta = std::make_shared<precis::Vinta<D>>(model.cfa, std::move(domain), o);
  precis::defer_teardown(vinta);  // freed after the report (core/teardown.hpp)
  precis::VerificationResult r = vinta->run(&ctx.limits);
  r.stats.time_total = ctx.limits.elapsed();
  return {std::move(r), vinta->certificate()};
}

// Bounded model checking: UNSAFE with a replayed counterexample, SAFE when the
// unrolling is complete (with a checked bounded certificate), or UNKNOWN with the depth
// it reached.
inline Outcome run_bmc(const Model& model, const RunContext& ctx) {
  precis::BmcOptions o;
  o.solver = solver_options(ctx);
  o.solver.timeout_ms = 0;  // one query may use the run's time (the deadline bounds it)
  o.solver.unsat_cores = false;
  if (!ctx.cfg.quiet)
    o.progress = [](std::size_t d, std::size_t q, double s) {
      std::fprintf(stderr, "[bmc] depth %zu checked, %zu queries, %.1f s\n", d, q, s);
    };
  auto bmc = std::make_shared<precis::Bmc>(model.cfa, std::move(o));
  precis::defer_teardown(bmc);  // freed after the report (core/teardown.hpp)
  precis::VerificationResult r = bmc->run(&ctx.limits);
  r.stats.time_total = ctx.limits.elapsed();
  return {std::move(r), std::nullopt};
}

// The program's constants as widening thresholds with --widen-thresholds (empty
// without). Thresholds make plain AI more precise; in VINTA every threshold step is one
// more unrolling in the ARG (and refinement recovers the bounds anyway), so auto is on
// for ai-* and off for vinta-* / ufo-*, the paper's standard widening.
inline precis::Thresholds program_thresholds(const Model& model, const Config& cfg,
                                             bool thresholds_by_default) {
  precis::Thresholds th;
  const bool thresholds =
      cfg.widen_thresholds == "on" || (cfg.widen_thresholds == "auto" && thresholds_by_default);
  if (thresholds)
    for (precis::Loc l = 0; l < model.cfa.num_locations(); ++l)
      for (auto e : model.cfa.out_edges(l)) precis::add_constants(th, model.cfa.operation(e));
  return th;
}

// A numeric domain constructed from the thresholds (Box, zones, octagons, ...).
template <class D>
D numeric_domain(const Model& model, const Config& cfg, bool thresholds_by_default) {
  return D(program_thresholds(model, cfg, thresholds_by_default));
}
inline precis::BoxDomain box_domain(const Model& model, const Config& cfg,
                                    bool thresholds_by_default) {
  return numeric_domain<precis::BoxDomain>(model, cfg, thresholds_by_default);
}
#endif

}  // namespace precis_cli
