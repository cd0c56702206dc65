// The registry of precis-verify's analyses (see analyses.hpp): to add an analysis, add
// its entry to kAnalyses, with the way it runs (run_support.hpp has what runs share).

#include "analyses.hpp"

#include <algorithm>
#include <array>

#include "invariants.hpp"
#include "precis/algorithms/random_simulation.hpp"
#include "precis/core/approximated_value.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/core/input_error.hpp"
#include "precis/domains/congruence/interval_congruence.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/sliced_prefixes.hpp"
#include "run_support.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/refine/sliced_prefixes_smt.hpp"
#endif
#if defined(PRECIS_HAVE_CVC5) && defined(PRECIS_HAVE_PPL)
#include "precis/domains/relational/polyhedra.hpp"
#endif

namespace precis_cli {
namespace {

// Sliced prefixes and refinement selection (--prefixes; `none` is the plain refiner).
// `auto` is `domain`, except where an analysis measured better with another
// (`auto_selection`).
precis::PrefixSelection prefix_selection(const Model& model, const RunContext& ctx,
                                         const char* auto_selection = "domain") {
  const std::string& s = ctx.cfg.prefixes;
  return precis::parse_prefix_selection(s == "auto" ? std::string(auto_selection) : s, model.cfa);
}

#ifdef PRECIS_HAVE_CVC5
using SelectingPred = precis::SelectingRefiner<precis::PredicateRefiner>;

SelectingPred selecting_pred(const Model& model, const RunContext& ctx) {
  return SelectingPred(model.cfa, precis::PredicateRefiner(model.cfa, refiner_options(ctx)),
                       prefix_selection(model, ctx));
}
#endif

// An analysis that needs the SMT layer has no run function in a build without cvc5.
#ifdef PRECIS_HAVE_CVC5
#define PRECIS_CLI_SMT(...) __VA_ARGS__
#else
#define PRECIS_CLI_SMT(...) nullptr
#endif

// An analysis over polyhedra also needs PPL (precis::ppl, libppl-dev): no run function
// without it, and run_analysis says so.
#if defined(PRECIS_HAVE_CVC5) && defined(PRECIS_HAVE_PPL)
#define PRECIS_CLI_PPL(...) __VA_ARGS__
#else
#define PRECIS_CLI_PPL(...) nullptr
#endif

constexpr bool kCvc5 = true;

// The analyses over polyhedra (ai-poly, vinta-poly).
constexpr bool needs_ppl(std::string_view analysis) { return analysis.ends_with("-poly"); }

#if defined(PRECIS_HAVE_CVC5) && defined(PRECIS_HAVE_PPL)
// Polyhedra with the run's deadline inside PPL (a single PPL operation can take minutes;
// domains/relational/ppl_limits.hpp) and the domain's default size limit.
precis::PolyhedraDomain poly_domain(const Model& m, const RunContext& ctx,
                                    bool thresholds_by_default) {
  auto d = numeric_domain<precis::PolyhedraDomain>(m, ctx.cfg, thresholds_by_default);
  d.set_deadline(precis::Deadline::of(ctx.limits));
  return d;
}

// What the size limit did (the statistics are shared by the copies of the domain).
Outcome with_poly_statistics(Outcome o, const precis::PolyhedraDomain& d) {
  const precis::PolyhedraStatistics& s = d.statistics();
  auto& x = o.result.stats.extra;
  x["poly largest rows"] = static_cast<double>(s.largest);
  x["poly weakened to two-variable"] = static_cast<double>(s.two_variable);
  x["poly weakened to intervals"] = static_cast<double>(s.intervals);
  x["poly joins as intervals"] = static_cast<double>(s.interval_joins);
  return o;
}
#endif

using M = const Model&;
using C = const RunContext&;

Outcome run_simulation(M model, C ctx) {
  precis::SimulationOptions o;
  if (!ctx.cfg.quiet)
    o.progress = [](std::size_t runs, std::size_t steps, double s) {
      std::fprintf(stderr, "[sim] %zu runs, %zu steps, %.1f s\n", runs, steps, s);
    };
  precis::VerificationResult r = precis::RandomSimulation(model.cfa, std::move(o)).run(&ctx.limits);
  r.stats.time_total = ctx.limits.elapsed();
  return {std::move(r), std::nullopt};
}

const std::array kAnalyses{
    AnalysisEntry{
        "expl", false,
        "explicit values (with cvc5, every explicitly feasible error path gets the exact check)",
        [](M m, C ctx) {
          const precis::Deadline deadline = precis::Deadline::of(ctx.limits);
#ifdef PRECIS_HAVE_CVC5
          return verify(m, ctx, precis::Expl(m.cfa),
                        precis::SelectingRefiner<precis::ExplicitSmtRefiner>(
                            precis::ExplicitSmtRefiner(m.cfa, solver_options(ctx)),
                            prefix_selection(m, ctx), precis::ExplicitPrefixes(deadline)));
#else
          return verify(m, ctx, precis::Expl(m.cfa),
                        precis::SelectingRefiner<precis::ExplicitRefiner>(
                            precis::ExplicitRefiner(m.cfa, deadline), prefix_selection(m, ctx),
                            precis::ExplicitPrefixes(deadline)));
#endif
        }},
    AnalysisEntry{"pred-cart", kCvc5, "predicate abstraction after every edge, Cartesian",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return verify(m, ctx, precis::PredCart(m.cfa, predicate_options(ctx)),
                                  selecting_pred(m, ctx));
                  })},
    AnalysisEntry{"pred-bool", kCvc5, "predicate abstraction after every edge, Boolean",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return verify(m, ctx, precis::PredBool(m.cfa, predicate_options(ctx)),
                                  selecting_pred(m, ctx));
                  })},
    // Selection on the explicit component first, then on the predicates. The value limit
    // escalates for variables explicit values need (never weaker than expl alone,
    // refine/value_limit_refiner.hpp).
    AnalysisEntry{
        "expl+pred", kCvc5, "explicit values with auxiliary predicates",
        PRECIS_CLI_SMT([](M m, C ctx) {
          using Product = precis::ProductDomain<precis::Expl, precis::Pred>;
          auto limits = value_limits(ctx.cfg);
          return verify(
              m, ctx,
              Product(precis::Expl(m.cfa, limits), precis::Pred(m.cfa, predicate_options(ctx))),
              precis::ValueLimitRefiner(
                  limits, precis::make_selecting_product(
                              // `all`: the union of every infeasible prefix's increments
                              // (bench/README.md, "Refinement selection for expl+pred").
                              m.cfa, prefix_selection(m, ctx, "all"),
                              precis::ExplicitRefiner(m.cfa, precis::Deadline::of(ctx.limits)),
                              precis::PredicateRefiner(m.cfa, refiner_options(ctx)))));
        })},
    // Adjustable-block encoding (ABE-lf by default; --block).
    AnalysisEntry{"pred-abe", kCvc5,
                  "predicate abstraction with adjustable-block encoding (see --block)",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return verify(m, ctx, precis::PredAbe(m.cfa, abe_options(ctx)),
                                  precis::BlockRefiner(m.cfa, block_refiner_options(ctx)));
                  })},
    AnalysisEntry{"pred-abe-cart", kCvc5, "the same with Cartesian abstraction",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return verify(m, ctx, precis::PredAbeCart(m.cfa, abe_options(ctx)),
                                  precis::BlockRefiner(m.cfa, block_refiner_options(ctx)));
                  })},
    // The explicit-value paper's CPA-EXPLitp-PRED (section IV): ABE-lf predicates.
    AnalysisEntry{
        "expl+pred-abe", kCvc5,
        "explicit values with auxiliary predicates under adjustable-block encoding",
        PRECIS_CLI_SMT([](M m, C ctx) {
          using Product = precis::ProductDomain<precis::Expl, precis::PredAbe>;
          using Refiner = precis::ProductRefiner<precis::ExplicitRefiner, precis::BlockRefiner>;
          auto limits = value_limits(ctx.cfg);
          return verify(
              m, ctx,
              Product(precis::Expl(m.cfa, limits), precis::PredAbe(m.cfa, abe_options(ctx))),
              precis::ValueLimitRefiner(
                  limits, Refiner(precis::ExplicitRefiner(m.cfa, precis::Deadline::of(ctx.limits)),
                                  precis::BlockRefiner(m.cfa, block_refiner_options(ctx)))));
        })},
    // The explicit x predicate product with value enumeration (product-abstraction paper,
    // chapter 3). `--analysis prod` runs as prod-<--prod-strategy> (config.cpp).
    AnalysisEntry{"prod", kCvc5,
                  "explicit x predicate product with value enumeration (see --prod-strategy "
                  "and --limit)",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    if (ctx.cfg.prod_strategy == "path")
                      return run_product<precis::ProdPath>(m, ctx);
                    if (ctx.cfg.prod_strategy == "arg") return run_product<precis::ProdArg>(m, ctx);
                    return run_product<precis::ProdState>(m, ctx);
                  })},
    AnalysisEntry{"prod-state", kCvc5,
                  "prod, counting values among one state's successors (Alg. 1)",
                  PRECIS_CLI_SMT(run_product<precis::ProdState>)},
    AnalysisEntry{"prod-path", kCvc5, "prod, counting values on the ARG path (Alg. 2)",
                  PRECIS_CLI_SMT(run_product<precis::ProdPath>)},
    AnalysisEntry{"prod-arg", kCvc5, "prod, counting values in the whole ARG (Alg. 3)",
                  PRECIS_CLI_SMT(run_product<precis::ProdArg>)},
    // Abstract interpretation alone, and refined by interpolation (VINTA, UFO's
    // refinement; VINTA paper): boxes, or disjunctions of boxes.
    AnalysisEntry{
        "ai-box", kCvc5,
        "abstract interpretation with intervals and widening, no refinement: SAFE "
        "with a solver-checked invariant, or UNKNOWN",
        PRECIS_CLI_SMT([](M m, C ctx) { return interpret(m, ctx, box_domain(m, ctx.cfg, true)); })},
    AnalysisEntry{"ai-boxes", kCvc5, "the same with disjunctions of intervals",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return interpret(m, ctx, precis::BoxesDomain(box_domain(m, ctx.cfg, true)));
                  })},
    // Intervals and congruences (x = r mod m), reduced: parity and stride invariants.
    AnalysisEntry{"ai-cong", kCvc5,
                  "abstract interpretation with intervals and congruences (x = r mod m), "
                  "reduced, no refinement",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return interpret(
                        m, ctx, precis::IntervalCongruenceDomain(box_domain(m, ctx.cfg, true)));
                  })},
    AnalysisEntry{
        "vinta-box", kCvc5, "VINTA: intervals refined by interpolants guided by the AI labels",
        PRECIS_CLI_SMT([](M m, C ctx) {
          return run_vinta(m, ctx, box_domain(m, ctx.cfg, false), precis::VintaRefinement::Vinta);
        })},
    AnalysisEntry{
        "vinta-cong", kCvc5, "VINTA with intervals and congruences", PRECIS_CLI_SMT([](M m, C ctx) {
          return run_vinta(m, ctx, precis::IntervalCongruenceDomain(box_domain(m, ctx.cfg, false)),
                           precis::VintaRefinement::Vinta);
        })},
    AnalysisEntry{"vinta-boxes", kCvc5, "VINTA with disjunctions of intervals",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return run_vinta(m, ctx, precis::BoxesDomain(box_domain(m, ctx.cfg, false)),
                                     precis::VintaRefinement::Vinta);
                  })},
    AnalysisEntry{"ufo-box", kCvc5, "intervals refined by UFO's unguided DAG interpolants",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return run_vinta(m, ctx, box_domain(m, ctx.cfg, false),
                                     precis::VintaRefinement::Ufo);
                  })},
    AnalysisEntry{"ufo-boxes", kCvc5, "the same with disjunctions of intervals",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return run_vinta(m, ctx, precis::BoxesDomain(box_domain(m, ctx.cfg, false)),
                                     precis::VintaRefinement::Ufo);
                  })},
    // Relational domains: zones (x - y <= c) and octagons (+-x +-y <= c), alone
    // and refined by VINTA.
    AnalysisEntry{"ai-zone", kCvc5,
                  "abstract interpretation with zones (x - y <= c) and widening, no refinement",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return interpret(m, ctx, numeric_domain<precis::ZoneDomain>(m, ctx.cfg, true));
                  })},
    AnalysisEntry{"ai-oct", kCvc5,
                  "abstract interpretation with octagons (+-x +-y <= c) and widening, no "
                  "refinement",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    return interpret(m, ctx,
                                     numeric_domain<precis::OctagonDomain>(m, ctx.cfg, true));
                  })},
    AnalysisEntry{"vinta-zone", kCvc5, "VINTA with zones", PRECIS_CLI_SMT([](M m, C ctx) {
                    return run_vinta(m, ctx, numeric_domain<precis::ZoneDomain>(m, ctx.cfg, false),
                                     precis::VintaRefinement::Vinta);
                  })},
    AnalysisEntry{"vinta-oct", kCvc5, "VINTA with octagons", PRECIS_CLI_SMT([](M m, C ctx) {
                    return run_vinta(m, ctx,
                                     numeric_domain<precis::OctagonDomain>(m, ctx.cfg, false),
                                     precis::VintaRefinement::Vinta);
                  })},
    // Convex polyhedra on PPL: relations such as k = 2i, c = 3i + j.
    AnalysisEntry{"ai-poly", kCvc5,
                  "abstract interpretation with convex polyhedra (PPL) and widening, no "
                  "refinement",
                  PRECIS_CLI_PPL([](M m, C ctx) {
                    precis::PolyhedraDomain d = poly_domain(m, ctx, true);
                    const precis::PolyhedraDomain keep = d;
                    return with_poly_statistics(interpret(m, ctx, std::move(d)), keep);
                  })},
    AnalysisEntry{"vinta-poly", kCvc5, "VINTA with convex polyhedra (PPL)",
                  PRECIS_CLI_PPL([](M m, C ctx) {
                    precis::PolyhedraDomain d = poly_domain(m, ctx, false);
                    const precis::PolyhedraDomain keep = d;
                    return with_poly_statistics(
                        run_vinta(m, ctx, std::move(d), precis::VintaRefinement::Vinta), keep);
                  })},
    // Bounded model checking: searches deep bugs directly.
    AnalysisEntry{"bmc", kCvc5,
                  "bounded model checking over the cutpoint graph, one incremental solver: "
                  "UNSAFE (replayed), SAFE when no execution is longer than the unrolling "
                  "(a checked bounded certificate), or UNKNOWN with the depth reached",
                  PRECIS_CLI_SMT(run_bmc)},
    AnalysisEntry{"kind", kCvc5,
                  "k-induction over the cutpoint graph, the step case strengthened by the "
                  "octagon invariant (--invariants zone: zones); SAFE with a checked "
                  "k-inductive certificate",
                  PRECIS_CLI_SMT(run_kind)},
    // Random simulation: concrete runs with random inputs, for bugs too deep to unroll.
    AnalysisEntry{"sim", false,
                  "random simulation: the program run concretely with random inputs, runs "
                  "without inputs to their end: UNSAFE (replayed), SAFE only for a program "
                  "with one execution (its run, checked again), or UNKNOWN",
                  run_simulation},
    // Cartesian by default, precise on the clusters refinement put on edges (synergy paper).
    AnalysisEntry{"synergy", kCvc5,
                  "Cartesian predicate abstraction, precise on the predicate clusters "
                  "refinement puts on edges (see --synergy, --threshold, --threshold-ms)",
                  PRECIS_CLI_SMT([](M m, C ctx) {
                    precis::PredicateOptions po = predicate_options(ctx);
                    po.boolean_budget_ms = ctx.cfg.threshold_ms;
                    precis::SynergyAnalysis analysis(m.cfa, std::move(po));
                    precis::SynergyRefiner<SelectingPred> refiner(analysis, selecting_pred(m, ctx),
                                                                  synergy_options(ctx.cfg));
                    return verify(m, ctx, std::move(analysis), std::move(refiner));
                  })},
};

#undef PRECIS_CLI_SMT
#undef PRECIS_CLI_PPL

}  // namespace

std::span<const AnalysisEntry> analyses() { return kAnalyses; }

const AnalysisEntry* find_analysis(std::string_view name) {
  const auto it = std::find_if(kAnalyses.begin(), kAnalyses.end(),
                               [&](const AnalysisEntry& a) { return a.name == name; });
  return it == kAnalyses.end() ? nullptr : &*it;
}

std::string analyses_help() {
  std::string help =
      "auto (default): a portfolio of analyses run in sequence, chosen from the program's "
      "features (algorithms/portfolio.hpp; see --stages)";
  for (const AnalysisEntry& a : kAnalyses) {
    help.append("; ").append(a.name).append(": ").append(a.description);
    if (a.needs_cvc5) help += needs_ppl(a.name) ? " (cvc5, PPL)" : " (cvc5)";
  }
  return help;
}

Outcome run_analysis(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const AnalysisEntry* a = find_analysis(cfg.analysis);
  if (a == nullptr)
    throw precis::input_error({cfg.model, 0, 0}, "unknown analysis '" + cfg.analysis + "'");
#ifdef PRECIS_HAVE_CVC5
  if (a->run == nullptr && needs_ppl(a->name))
    throw precis::input_error({cfg.model, 0, 0},
                              "analysis '" + cfg.analysis +
                                  "' needs the Parma Polyhedra Library (libppl-dev), which this "
                                  "build does not have: install libppl-dev and reconfigure");
#endif
  if (a->run == nullptr)
    throw precis::input_error({cfg.model, 0, 0},
                              "analysis '" + cfg.analysis +
                                  "' needs the SMT layer (cvc5), which this build does not have: "
                                  "install libcvc5-dev and reconfigure");
  // --invariants: a relational invariant first, for every analysis but plain AI and
  // k-induction (which takes it into its step case itself).
  Outcome o = cfg.invariants != "none" && !cfg.analysis.starts_with("ai-") && cfg.analysis != "kind"
                  ? run_with_invariants(*a, model, ctx)
                  : a->run(model, ctx);
  // A path through a bound marker (recursion inlined only so deep) is no counterexample.
  precis::reject_bound_marker_paths(o.result);
  // Nor is a path that takes an over-approximated value (sin, pow, ... of a C program).
  precis::reject_approximated_paths(o.result);
  return o;
}

// A C program without a call of the error function: SAFE, with the trivial certificate
// (true everywhere; nothing is unsafe), checked like every other.
Outcome no_error_location(const Model& model, const RunContext& ctx) {
  const precis::Cfa& cfa = model.cfa;
  precis::ExprManager& em = *cfa.expr_manager();
  Outcome o;
  o.result.verdict = precis::Verdict::Safe;
  o.result.reason = "the program never calls the error function: no error location";
  precis::Certificate cert;
  cert.point.assign(cfa.num_locations(), true);
  cert.disjuncts.assign(cfa.num_locations(), std::vector<precis::Term>{em.true_()});
#ifdef PRECIS_HAVE_CVC5
  if (ctx.cfg.certify == "on") precis::certify_safe(cfa, cert, o.result, solver_options(ctx));
#else
  (void)ctx;
#endif
  o.certificate = std::move(cert);
  return o;
}

}  // namespace precis_cli
