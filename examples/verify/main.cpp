// precis-verify: the command-line verifier built from the precis library.
//
//   precis-verify model.cfa                      explicit-value CEGAR (the default)
//   precis-verify --baseline model.cfa           track every variable, no CEGAR
//   precis-verify --json model.cfa               machine-readable report
//
// Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage or internal error.
// The verdict and the counterexample go to stdout; progress and statistics to stderr.

#include <pthread.h>
#include <sys/stat.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/portfolio.hpp"
#include "precis/algorithms/sequential.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/arg_dot.hpp"
#include "precis/io/cfa_dot.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/report.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/refinement_selection.hpp"
#include "precis/refine/sliced_prefixes.hpp"
#include "watchdog.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certify.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/domains/product/strategy_product.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/refine/sliced_prefixes_smt.hpp"
#include "precis/refine/strategy_product_refiner.hpp"
#include "precis/refine/synergy_refiner.hpp"
#include "precis/refine/value_limit_refiner.hpp"
#endif
// Certificates and witnesses are written without cvc5 too (only checking them needs it).
#include "precis/certify/certificate.hpp"
#include "precis/io/sha256.hpp"
#include "witnesses.hpp"

#ifdef PRECIS_HAVE_CFRONT
#include "precis/frontends/c/c_frontend.hpp"
#endif

#if defined(__SANITIZE_ADDRESS__)
// cvc5's arithmetic library (CLN) keeps a few bytes from static initialisation alive
// until exit; that is not our leak.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libcvc5.so\nleak:libcvc5parser.so\n";
}
#endif

namespace {

enum ExitCode : int { kSafe = 0, kUnsafe = 1, kUnknown = 2, kInputError = 3, kUsage = 4 };

// Three quarters of the machine's memory: the process ends with UNKNOWN ("memory
// limit") before the system would kill it.
std::size_t default_memory_limit_mb() {
  const std::size_t phys = precis::physical_memory_bytes();
  return phys ? phys / 4 * 3 / (1024 * 1024) : 0;
}

struct Config {
  std::string model;
  std::string analysis = "auto";
  std::string order = "auto";      // bfs; rpo for the block-encoded analyses
  std::string block = "function";  // ABE: abstraction points (loop-heads, function, sbe)
  std::string granularity = "scope";
  bool restart = false;
  bool baseline = false;
  double time_limit = 900;
  std::size_t max_refinements = 0;
  std::size_t max_nodes = 0;
  std::size_t memory_limit_mb = default_memory_limit_mb();
  bool json = false;
  bool quiet = false;
  std::string arg_dot;
  std::string cfa_dot;
  // SMT-based analyses
  std::string interpolation = "auto";  // auto (Farkas, then core+wp), farkas, core-wp, cvc5
  std::string split = "atoms";
  std::size_t bool_max_preds = 16;
  double solver_timeout = 5;            // seconds per check
  std::uint32_t value_limit = 64;       // expl+pred: stop tracking a variable explicitly after this
  std::string prefixes = "domain";      // refinement selection over sliced prefixes
  std::size_t prod_k = 1;               // prod: the limit k (STATE with k = 1 measured best)
  std::string prod_strategy = "state";  // prod: STATE, PATH or ARG
  std::uint32_t widen_every = 3;        // ai-*: widen at a loop head from this update on
  std::string widen_thresholds = "auto";  // widening with the program's constants (auto: ai-*)
  std::string synergy = "st+sp";          // synergy: NewST, NewSP, both, or none (Cartesian)
  std::string threshold = "paper";        // synergy: cluster size limit (paper: 13 / 17)
  double threshold_ms = 0;                // synergy: time budget of one precise abstraction
  std::string certify = "on";             // check SAFE by its certificate (needs cvc5)
  std::string witness;                    // write the verdict's witness here
  std::string validate;                   // check this witness instead of verifying
  std::string stages;  // auto: these analyses in this order instead of the portfolio's choice
};

// The names --analysis takes (besides auto).
const std::vector<std::string> kAnalyses{
    "expl",          "pred-cart", "pred-bool",   "expl+pred", "pred-abe",  "pred-abe-cart",
    "expl+pred-abe", "prod",      "prod-state",  "prod-path", "prod-arg",  "ai-box",
    "ai-boxes",      "vinta-box", "vinta-boxes", "ufo-box",   "ufo-boxes", "synergy"};

// The analyses of --stages, in order ("a,b,c").
std::vector<std::string> stage_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  return names;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What was read: the CFA and, for an SV-COMP task, the expected verdict.
struct Model {
  precis::Cfa cfa;
  bool is_task = false;
  std::optional<bool> expected;  // SV-COMP: true = no reachable error call
  std::string c_file;            // the C program (empty for a .cfa model)
  bool lp64 = false;             // its data model
};

// Inputs must be regular files: opening a FIFO without a writer would block forever,
// and a directory or a device is never a model.
void require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw precis::input_error({path, 0, 0}, "cannot open the file");
  if (!S_ISREG(st.st_mode))
    throw precis::input_error({path, 0, 0}, "not a regular file (a FIFO, directory or device)");
}

Model load_model(const std::string& path, const precis::Limits& limits) {
  require_regular_file(path);
  if (ends_with(path, ".c") || ends_with(path, ".i") || ends_with(path, ".yml") ||
      ends_with(path, ".yaml")) {
#ifdef PRECIS_HAVE_CFRONT
    precis::c::TranslateOptions opts;
    opts.deadline = precis::Deadline::of(limits);
    if (ends_with(path, ".c") || ends_with(path, ".i"))
      return {precis::c::translate_file(path, opts), false, {}, path, false};
    precis::c::Task task = precis::c::read_task(path);
    opts.data_model = task.data_model;
    return {precis::c::translate_file(task.c_file, opts), true, task.expected_verdict, task.c_file,
            task.data_model == precis::c::DataModel::LP64};
#else
    (void)limits;
    throw precis::input_error({path, 0, 0},
                              "C programs and SV-COMP tasks need the C front end, which this "
                              "build does not have (configure with clang 14 installed)");
#endif
  }
  return {precis::read_cfa_file(path), false, {}, {}, false};
}

const char* sv_verdict(precis::Verdict v) {
  switch (v) {
    case precis::Verdict::Safe: return "true";
    case precis::Verdict::Unsafe: return "false";
    case precis::Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

// What every analysis run shares: the configuration, the run's limits, the opened
// output files and the watchdog that owns the right to print when a limit strikes.
struct RunContext {
  const Config& cfg;
  const precis::Limits& limits;
  // The ARG DOT output: the file (opened up front, so a bad path fails before the run),
  // or a stage's buffer under --analysis auto.
  std::ostream* arg_dot = nullptr;
  precis_cli::Watchdog* watchdog = nullptr;
};

// What one analysis run gives: its result and, for a certified SAFE, the certificate
// (witnesses are written from it).
struct Outcome {
  precis::VerificationResult result;
  std::optional<precis::Certificate> certificate;
};

int report(const Model& model, const RunContext& ctx, const precis::VerificationResult& r,
           const precis::Certificate* cert = nullptr);
#ifdef PRECIS_HAVE_CVC5
precis::Cvc5Options solver_options(const RunContext& ctx);
#endif

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
  precis::CEGAR<Analysis, Refiner> cegar(cfa, o, std::move(analysis), std::move(refiner));
  // Refinement selection ranks prefixes whose increments the precision already has last.
  precis::connect_precision(cegar.refiner(), cegar.current_precision());
  precis::VerificationResult r = cegar.run();
#ifdef PRECIS_HAVE_CVC5
  // SAFE stands only with a certificate the independent checker proves (issue 13).
  std::optional<precis::Certified> certified;
  if (cfg.certify == "on")
    certified = precis::certify_safe(cfa, cegar.analysis(), cegar.arg(), r, solver_options(ctx));
#endif

  if (ctx.arg_dot) {
    std::ostream& f = *ctx.arg_dot;
    precis::write_arg_dot(f, cegar.arg(), cfa, [&](std::ostream& os, const auto& e) {
      if constexpr (requires { precis::print(os, e, cfa.exprs()); })
        precis::print(os, e, cfa.exprs());
    });
    if (auto* file = dynamic_cast<std::ofstream*>(&f)) file->close();
    if (!f) throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot write the ARG DOT file");
  }
#ifdef PRECIS_HAVE_CVC5
  if (certified) return {std::move(r), std::move(certified->certificate)};
#endif
  return {std::move(r), std::nullopt};
}

// Writes the witness of a certified SAFE (from its certificate) or of an UNSAFE (from its
// replayed counterexample), if --witness asked for one.
void write_witness(const Model& model, const Config& cfg, const precis::VerificationResult& r,
                   const precis::Certificate* cert) {
  if (cfg.witness.empty()) return;
  const bool safe = r.verdict == precis::Verdict::Safe && r.certified && cert != nullptr;
  const bool unsafe = r.verdict == precis::Verdict::Unsafe && r.counterexample;
  if (!safe && !unsafe) {
    std::cerr << "note: no witness written (" << precis::to_string(r.verdict)
              << (r.verdict == precis::Verdict::Safe ? " without a checked certificate" : "")
              << ")\n";
    return;
  }
  precis::WitnessTask task;
  task.program_file = model.c_file.empty() ? cfg.model : model.c_file;
  task.program_hash = precis::sha256_file_hex(task.program_file);
  task.architecture = model.lp64 ? "64bit" : "32bit";
  std::ofstream out(cfg.witness);
  if (!out)
    throw precis::input_error({cfg.witness, 0, 0}, "cannot open the witness file for writing");
  const precis::Cfa& cfa = model.cfa;
  if (model.c_file.empty()) {
    if (safe)
      precis_cli::write_cfa_correctness(out, cfa, *cert, task);
    else
      precis_cli::write_cfa_violation(out, cfa, *r.counterexample, task);
  } else if (safe) {
    precis_cli::write_correctness_witness(out, cfa, *cert, task, model.lp64 ? "LP64" : "ILP32",
                                          model.c_file);
  } else {
    precis_cli::write_violation_witness(out, cfa, *r.counterexample, task);
  }
  out.close();
  if (!out) throw precis::input_error({cfg.witness, 0, 0}, "cannot write the witness file");
}

// Prints the verdict (text or JSON) and returns the exit code.
int report(const Model& model, const RunContext& ctx, const precis::VerificationResult& r,
           const precis::Certificate* cert) {
  const Config& cfg = ctx.cfg;
  if (ctx.watchdog && !ctx.watchdog->claim_output()) {
    // The watchdog is printing UNKNOWN and ending the process.
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

#ifdef PRECIS_HAVE_CVC5
  write_witness(model, cfg, r, cert);
#else
  (void)cert;
  if (!cfg.witness.empty()) std::cerr << "note: witnesses need cvc5 (certificates); none written\n";
#endif
  if (r.verdict == precis::Verdict::Safe && !r.certified)
    std::cerr << "warning: this SAFE verdict is not checked by a certificate ("
#ifdef PRECIS_HAVE_CVC5
              << "--certify off"
#else
              << "this build has no cvc5"
#endif
              << ")\n";
  const std::string analysis_name = cfg.baseline ? cfg.analysis + " (baseline)" : cfg.analysis;
  std::optional<precis::SvCompInfo> sv;
  if (model.is_task) {
    sv = precis::SvCompInfo{sv_verdict(r.verdict),
                            model.expected
                                ? std::optional<std::string>(*model.expected ? "true" : "false")
                                : std::nullopt};
  }
  if (cfg.json) {
    precis::write_json(std::cout, r, cfg.model, analysis_name, sv);
  } else {
    std::cout << precis::to_string(r.verdict) << '\n';
    if (sv) {
      std::cout << "SV-COMP verdict: " << sv->verdict;
      if (sv->expected) {
        std::cout << " (expected " << *sv->expected << ": "
                  << (r.verdict == precis::Verdict::Unknown ? "undecided"
                      : sv->verdict == *sv->expected        ? "correct"
                                                            : "WRONG")
                  << ")";
      }
      std::cout << '\n';
    }
    if (r.verdict == precis::Verdict::Unknown) std::cout << "Reason: " << r.reason << '\n';
    if (r.verdict == precis::Verdict::Safe && r.certified) {
      const auto& x = r.stats.extra;
      const auto num = [&](const char* k) {
        auto it = x.find(k);
        return it == x.end() ? 0.0 : it->second;
      };
      std::cout << "Certificate: checked (" << num("certificate points") << " locations, "
                << num("certificate disjuncts") << " disjuncts, " << num("certificate queries")
                << " queries, " << num("certificate time s") << " s)\n";
    }
    if (auto it = r.stats.lists.find("portfolio stages"); it != r.stats.lists.end()) {
      std::cout << "Stages:\n";
      for (const auto& line : it->second) std::cout << "  " << line << '\n';
    }
    if (r.counterexample) precis::print_counterexample(std::cout, *r.counterexample);
    if (!cfg.quiet) precis::print_statistics(std::cerr, r.stats);
  }
  switch (r.verdict) {
    case precis::Verdict::Safe: return kSafe;
    case precis::Verdict::Unsafe: return kUnsafe;
    case precis::Verdict::Unknown: return kUnknown;
  }
  return kUnknown;
}

#ifdef PRECIS_HAVE_CVC5
precis::Cvc5Options solver_options(const RunContext& ctx);

// Abstract interpretation alone (ai-box, ai-boxes; issue 11): SAFE only with a
// solver-checked inductive invariant (smt/invariant_check.hpp), else UNKNOWN.
template <class D>
Outcome interpret(const Model& model, const RunContext& ctx, D domain) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  precis::AbstractInterpreterOptions o;
  o.widen_delay = cfg.widen_every;
  precis::AbstractInterpreter<D> ai(cfa, std::move(domain), o);
  const auto started = std::chrono::steady_clock::now();
  auto res = ai.run(&ctx.limits);
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

// VINTA (issue 11): abstract interpretation over the cutpoint graph refined by DAG
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
  precis::Vinta<D> vinta(model.cfa, std::move(domain), o);
  precis::VerificationResult r = vinta.run(&ctx.limits);
  r.stats.time_total = ctx.limits.elapsed();
  return {std::move(r), vinta.certificate()};
}

// Every solver call gets min(--solver-timeout, the time left of the run).
precis::Cvc5Options solver_options(const RunContext& ctx) {
  precis::Cvc5Options o;
  o.timeout_ms = static_cast<std::uint32_t>(ctx.cfg.solver_timeout * 1000);
  o.deadline = precis::Deadline::of(ctx.limits);
  return o;
}

precis::PredicateRefinerOptions refiner_options(const RunContext& ctx) {
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

precis::PredicateOptions predicate_options(const RunContext& ctx) {
  precis::PredicateOptions o;
  o.boolean_max_predicates = ctx.cfg.bool_max_preds;
  o.solver = solver_options(ctx);
  return o;
}

// --synergy and --threshold (issue 12): NewST / NewSP and the cluster size limits
// (paper: the section 4.2.3 values, 13 for ST and 17 for SP; off; or one N for both).
precis::SynergyRefinerOptions synergy_options(const Config& cfg) {
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

precis::BlockPolicy block_policy(const Config& cfg) {
  if (cfg.block == "loop-heads") return precis::BlockPolicy::LoopHeads;
  if (cfg.block == "sbe") return precis::BlockPolicy::EveryLocation;
  return precis::BlockPolicy::FunctionEntriesAndLoopHeads;
}

precis::AbeOptions abe_options(const RunContext& ctx) {
  return precis::AbeOptions{block_policy(ctx.cfg), predicate_options(ctx)};
}

precis::BlockRefinerOptions block_refiner_options(const RunContext& ctx) {
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
std::shared_ptr<precis::ValueLimits> value_limits(const Config& cfg) {
  if (cfg.value_limit == 0) return nullptr;
  return std::make_shared<precis::ValueLimits>(precis::ValueLimitOptions{
      .base = cfg.value_limit, .escalation = 8, .patience = 1, .max_level = 4});
}
#endif

Outcome run_analysis(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  const precis::Deadline deadline = precis::Deadline::of(ctx.limits);
  // Sliced prefixes and refinement selection (--prefixes; `none` is the plain refiner).
  const precis::PrefixSelection sel = precis::parse_prefix_selection(cfg.prefixes, cfa);
  if (cfg.analysis == "expl") {
#ifdef PRECIS_HAVE_CVC5
    // With a solver, every explicit-feasible error path gets the exact check.
    return verify(model, ctx, precis::Expl(cfa),
                  precis::SelectingRefiner<precis::ExplicitSmtRefiner>(
                      precis::ExplicitSmtRefiner(cfa, solver_options(ctx)), sel,
                      precis::ExplicitPrefixes(deadline)));
#else
    return verify(
        model, ctx, precis::Expl(cfa),
        precis::SelectingRefiner<precis::ExplicitRefiner>(precis::ExplicitRefiner(cfa, deadline),
                                                          sel, precis::ExplicitPrefixes(deadline)));
#endif
  }
#ifdef PRECIS_HAVE_CVC5
  using SelectingPred = precis::SelectingRefiner<precis::PredicateRefiner>;
  if (cfg.analysis == "pred-cart")
    return verify(model, ctx, precis::PredCart(cfa, predicate_options(ctx)),
                  SelectingPred(cfa, precis::PredicateRefiner(cfa, refiner_options(ctx)), sel));
  if (cfg.analysis == "pred-bool")
    return verify(model, ctx, precis::PredBool(cfa, predicate_options(ctx)),
                  SelectingPred(cfa, precis::PredicateRefiner(cfa, refiner_options(ctx)), sel));
  if (cfg.analysis == "synergy") {
    // Cartesian by default, precise on the clusters refinement put on edges (issue 12).
    precis::PredicateOptions po = predicate_options(ctx);
    po.boolean_budget_ms = cfg.threshold_ms;
    precis::SynergyAnalysis analysis(cfa, std::move(po));
    precis::SynergyRefiner<SelectingPred> refiner(
        analysis, SelectingPred(cfa, precis::PredicateRefiner(cfa, refiner_options(ctx)), sel),
        synergy_options(cfg));
    return verify(model, ctx, std::move(analysis), std::move(refiner));
  }
  if (cfg.analysis == "expl+pred") {
    // Selection on the explicit component first, then on the predicates.
    // The value limit escalates for variables explicit values need (never weaker than
    // expl alone, refine/value_limit_refiner.hpp).
    using Product = precis::ProductDomain<precis::Expl, precis::Pred>;
    auto limits = value_limits(cfg);
    return verify(
        model, ctx, Product(precis::Expl(cfa, limits), precis::Pred(cfa, predicate_options(ctx))),
        precis::ValueLimitRefiner(
            limits,
            precis::make_selecting_product(cfa, sel, precis::ExplicitRefiner(cfa, deadline),
                                           precis::PredicateRefiner(cfa, refiner_options(ctx)))));
  }
  // The explicit x predicate product with value enumeration (product-abstraction paper,
  // chapter 3): STATE (Alg. 1), PATH (Alg. 2), ARG (Alg. 3) strategies.
  if (cfg.analysis == "prod-state" || cfg.analysis == "prod-path" || cfg.analysis == "prod-arg") {
    auto control = std::make_shared<precis::StrategyControl>(cfg.prod_k);
    auto refiner = [&] {
      return precis::StrategyProductRefiner<>(cfa, control, precis::ExplicitRefiner(cfa, deadline),
                                              precis::PredicateRefiner(cfa, refiner_options(ctx)));
    };
    auto pred = [&] { return precis::PredCart(cfa, predicate_options(ctx)); };
    if (cfg.analysis == "prod-state")
      return verify(model, ctx, precis::ProdState(cfa, control, pred(), solver_options(ctx)),
                    refiner());
    if (cfg.analysis == "prod-path")
      return verify(model, ctx, precis::ProdPath(cfa, control, pred(), solver_options(ctx)),
                    refiner());
    return verify(model, ctx, precis::ProdArg(cfa, control, pred(), solver_options(ctx)),
                  refiner());
  }
  // Abstract interpretation alone, and refined by interpolation (VINTA, UFO's
  // refinement) (issue 11): boxes, or disjunctions of boxes.
  if (cfg.analysis.starts_with("ai-") || cfg.analysis.starts_with("vinta-") ||
      cfg.analysis.starts_with("ufo-")) {
    precis::Thresholds th;
    // Thresholds make plain AI more precise; in VINTA every threshold step is one more
    // unrolling in the ARG (and refinement recovers the bounds anyway), so auto is on for
    // ai-* and off for vinta-* / ufo-*, the paper's standard widening.
    const bool thresholds = cfg.widen_thresholds == "on" ||
                            (cfg.widen_thresholds == "auto" && cfg.analysis.starts_with("ai-"));
    if (thresholds)
      for (precis::Loc l = 0; l < cfa.num_locations(); ++l)
        for (auto e : cfa.out_edges(l)) precis::add_constants(th, cfa.operation(e));
    precis::BoxDomain box(std::move(th));
    const bool boxes = cfg.analysis.ends_with("-boxes");
    if (cfg.analysis.starts_with("ai-")) {
      if (!boxes) return interpret(model, ctx, std::move(box));
      return interpret(model, ctx, precis::BoxesDomain(std::move(box)));
    }
    const auto how = cfg.analysis.starts_with("vinta-") ? precis::VintaRefinement::Vinta
                                                        : precis::VintaRefinement::Ufo;
    if (!boxes) return run_vinta(model, ctx, std::move(box), how);
    return run_vinta(model, ctx, precis::BoxesDomain(std::move(box)), how);
  }
  // Adjustable-block encoding (ABE-lf by default; --block).
  if (cfg.analysis == "pred-abe")
    return verify(model, ctx, precis::PredAbe(cfa, abe_options(ctx)),
                  precis::BlockRefiner(cfa, block_refiner_options(ctx)));
  if (cfg.analysis == "pred-abe-cart")
    return verify(model, ctx, precis::PredAbeCart(cfa, abe_options(ctx)),
                  precis::BlockRefiner(cfa, block_refiner_options(ctx)));
  if (cfg.analysis == "expl+pred-abe") {
    // The explicit-value paper's CPA-EXPLitp-PRED (section IV): ABE-lf predicates.
    using Product = precis::ProductDomain<precis::Expl, precis::PredAbe>;
    using Refiner = precis::ProductRefiner<precis::ExplicitRefiner, precis::BlockRefiner>;
    auto limits = value_limits(cfg);
    return verify(model, ctx,
                  Product(precis::Expl(cfa, limits), precis::PredAbe(cfa, abe_options(ctx))),
                  precis::ValueLimitRefiner(
                      limits, Refiner(precis::ExplicitRefiner(cfa, deadline),
                                      precis::BlockRefiner(cfa, block_refiner_options(ctx)))));
  }
#else
  if (cfg.analysis != "expl")
    throw precis::input_error({cfg.model, 0, 0},
                              "analysis '" + cfg.analysis +
                                  "' needs the SMT layer (cvc5), which this build does not have: "
                                  "install libcvc5-dev and reconfigure");
#endif
  throw precis::input_error({cfg.model, 0, 0}, "unknown analysis '" + cfg.analysis + "'");
}

// --analysis auto (issue 14): the stages algorithms/portfolio.hpp chooses from the
// program's features, run in sequence by algorithms/sequential.hpp, each with its share
// of the time left. A stage's verdict counts only with its evidence (a certified SAFE,
// a replayed counterexample); with --certify off an unchecked SAFE counts too. The
// report lists every stage that ran and which one decided.
Outcome run_portfolio(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const precis::ProgramFeatures features = precis::program_features(model.cfa);
#ifdef PRECIS_HAVE_CVC5
  precis::PortfolioChoice choice = precis::choose_stages(features);
#else
  precis::PortfolioChoice choice{{{"expl", 1.0}}, "no cvc5: explicit values only"};
#endif
  if (!cfg.stages.empty()) {
    // --stages a,b,c: each stage an equal share of the time left (1/3, 1/2, all).
    const std::vector<std::string> names = stage_names(cfg.stages);
    choice = {{}, "--stages"};
    for (std::size_t i = 0; i < names.size(); ++i)
      choice.stages.push_back({names[i], 1.0 / static_cast<double>(names.size() - i)});
  }
  std::vector<std::optional<precis::Certificate>> certificates(choice.stages.size());
  // With --arg-dot each stage writes its ARG here; the deciding (or last) stage's is kept.
  std::vector<std::ostringstream> args(choice.stages.size());
  std::vector<precis::Stage> stages;
  for (std::size_t i = 0; i < choice.stages.size(); ++i) {
    const std::string name = choice.stages[i].analysis;
    stages.push_back({name, choice.stages[i].share, [&, i, name](double budget) {
                        Config c = cfg;
                        c.analysis = name == "prod" ? "prod-" + cfg.prod_strategy : name;
                        c.time_limit = budget;
                        precis::Limits l = ctx.limits;
                        l.start = precis::Limits::clock::now();
                        l.time_limit_s = budget;
                        if (!cfg.quiet)
                          std::fprintf(stderr, "[auto] stage %zu/%zu: %s (budget %.1f s)\n", i + 1,
                                       choice.stages.size(), name.c_str(), budget);
                        try {
                          Outcome o = run_analysis(
                              model,
                              RunContext{c, l, ctx.arg_dot ? &args[i] : nullptr, ctx.watchdog});
                          certificates[i] = std::move(o.certificate);
                          return std::move(o.result);
                        } catch (const precis::limit_reached& e) {
                          // The stage's budget; the run's own limits end the run.
                          if (e.kind() == precis::LimitKind::Depth || ctx.limits.timed_out()) throw;
                          precis::VerificationResult r;
                          r.reason = e.what();
                          return r;
                        }
                      }});
  }
  const auto accept = [&](const precis::VerificationResult& r) {
    if (cfg.certify == "off" && r.verdict == precis::Verdict::Safe) return true;
    return precis::has_evidence(r);
  };
  precis::SequentialResult seq = precis::run_sequential(stages, cfg.time_limit, accept);
  Outcome out{std::move(seq.result), std::nullopt};
  if (seq.decided_by) out.certificate = std::move(certificates[*seq.decided_by]);
  if (ctx.arg_dot && !seq.stages.empty()) {
    *ctx.arg_dot << args[seq.decided_by.value_or(seq.stages.size() - 1)].str();
    if (auto* file = dynamic_cast<std::ofstream*>(ctx.arg_dot)) file->close();
    if (!*ctx.arg_dot)
      throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot write the ARG DOT file");
  }
  auto& lines = out.result.stats.lists["portfolio stages"];
  for (const auto& st : seq.stages) {
    std::string line = st.name + ": " + precis::to_string(st.verdict);
    line += st.accepted ? " (decided)" : "";
    line += " in " + precis::format_seconds(st.seconds) + " s of ";
    line += st.budget_s > 0 ? precis::format_seconds(st.budget_s) + " s" : std::string("no limit");
    if (!st.accepted && !st.reason.empty()) line.append(": ").append(st.reason);
    lines.push_back(std::move(line));
  }
  out.result.stats.lists["portfolio rule"] = {choice.rule};
  const auto& f = features;
  out.result.stats.lists["portfolio features"] = {
      "locations " + std::to_string(f.locations),
      "branches " + std::to_string(f.branches),
      "variables " + std::to_string(f.variables),
      "boolean " + std::to_string(f.boolean_vars),
      "equality " + std::to_string(f.equality_vars),
      "arithmetic " + std::to_string(f.arithmetic_vars),
      "loop counters " + std::to_string(f.loop_counters),
      "inputs " + std::to_string(f.nondet_vars),
      "input flags " + std::to_string(f.nondet_flags),
      "loops " + std::to_string(f.loops),
      "loop nesting " + std::to_string(f.max_loop_nesting),
      std::string("nonlinear ") + (f.nonlinear ? "yes" : "no")};
  out.result.stats.time_total = ctx.limits.elapsed();
  return out;
}

// Option values CLI11 would let through: NaN and infinities for seconds, negative
// numbers wrapped into huge unsigned counts.
// A number of seconds: finite, and above (or at) zero.
CLI::Validator seconds_validator(bool allow_zero) {
  return CLI::Validator(
      [allow_zero](std::string& v) -> std::string {
        std::size_t pos = 0;
        double d = 0;
        try {
          d = std::stod(v, &pos);
        } catch (const std::exception&) {
          return "'" + v + "' is not a number";
        }
        if (pos != v.size() || !std::isfinite(d) || d < 0 || (!allow_zero && d == 0))
          return "'" + v + "' is not a finite number " + (allow_zero ? ">= 0" : "> 0");
        return {};
      },
      allow_zero ? "SECONDS>=0" : "SECONDS>0");
}
const CLI::Validator kFiniteNonNegative = seconds_validator(true);
const CLI::Validator kFinitePositive = seconds_validator(false);
const CLI::Validator kCount(
    [](std::string& v) -> std::string {
      if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
        return "'" + v + "' is not a non-negative whole number";
      return {};
    },
    "N>=0");

// The report when the run ends by a limit outside any analysis (front end, watchdog).
// The run --analysis asks for: the portfolio (auto) or one analysis.
Outcome run_configured(const Model& model, const RunContext& ctx) {
  return ctx.cfg.analysis == "auto" ? run_portfolio(model, ctx) : run_analysis(model, ctx);
}

std::string unknown_report(const Config& cfg, const std::string& reason, bool is_task) {
  std::ostringstream os;
  precis::VerificationResult r;
  r.reason = reason;
  if (!cfg.validate.empty()) {
    os << "undecided: " << reason << '\n';  // --validate prints as its own result does
    return os.str();
  }
  if (cfg.json) {
    std::optional<precis::SvCompInfo> sv;
    if (is_task) sv = precis::SvCompInfo{"unknown", std::nullopt};
    precis::write_json(os, r, cfg.model, cfg.analysis, sv);
  } else {
    os << "UNKNOWN\n";
    if (is_task) os << "SV-COMP verdict: unknown\n";
    os << "Reason: " << reason << '\n';
  }
  return os.str();
}

bool looks_like_task(const std::string& path) {
  return ends_with(path, ".yml") || ends_with(path, ".yaml");
}

#ifdef PRECIS_HAVE_CVC5
#ifdef PRECIS_HAVE_CFRONT
// A correctness witness whose invariants are true but not inductive by themselves
// (loop invariants are per source loop: a loop in a function inlined at several call
// sites gets one invariant for all of them, and the caller's locals are out of scope)
// is validated the way SV-COMP validators use a witness: the invariants become
// assertions, an edge from each loop head to the error location when the invariant
// fails, and the analysis (--analysis, auto by default) verifies the instrumented
// program. A certified SAFE confirms the witness: the invariants hold and the program is
// safe; a replayed counterexample rejects it, naming the invariant it violates (or the
// program's own error); anything else leaves it undecided.
precis_cli::Validation validate_by_analysis(
    const Model& model, const RunContext& ctx,
    const std::vector<std::pair<precis::Loc, precis::Term>>& at, const std::string& why) {
  Model checked = model;
  precis::Cfa& cfa = checked.cfa;
  precis::ExprManager& em = cfa.exprs();
  const precis::Loc err = *cfa.error_location();
  // The operation text of each assertion edge -> the witness line it checks.
  std::map<std::string, std::uint32_t> assertion_line;
  for (const auto& [l, t] : at) {
    const precis::Operation op = precis::Assume{em.not_(t)};
    const auto& info = cfa.location_info(l);
    cfa.add_edge(l, err, op, info.loop_line, info.loop_column);
    assertion_line.emplace(precis::to_string(op, em), info.loop_line);
  }
  const Outcome o = run_configured(checked, ctx);
  const precis::VerificationResult& r = o.result;
  // The checker's failure names the edge or block first; the formula after it can be long.
  const std::string brief = why.size() > 160 ? why.substr(0, 160) + "..." : why;
  const std::string intro = "the invariants are not inductive by themselves (" + brief + "); ";
  if (r.verdict == precis::Verdict::Safe && (r.certified || ctx.cfg.certify == "off"))
    return {true,
            intro + "they hold and the program is safe: " +
                (ctx.cfg.analysis == "auto" ? std::string("the portfolio") : ctx.cfg.analysis) +
                " proved the program with them as assertions" +
                (r.certified ? " (certified)" : " (unchecked: --certify off)")};
  if (r.verdict == precis::Verdict::Unsafe && r.counterexample &&
      !r.counterexample->steps.empty()) {
    const auto& last = r.counterexample->steps.back();
    const auto it = assertion_line.find(last.operation);
    if (it != assertion_line.end())
      return {false, "the invariant at line " + std::to_string(it->second) +
                         " does not hold: a replayed path of " +
                         std::to_string(r.counterexample->steps.size()) + " steps violates it"};
    return {false, "the program is unsafe: a replayed path of " +
                       std::to_string(r.counterexample->steps.size()) +
                       " steps reaches the error location"};
  }
  return {false, intro + "checking them as assertions was undecided: " + r.reason, true};
}
#endif

// --validate WITNESS: a violation witness (GraphML) is replayed on the model, a
// correctness witness (YAML) proved as a certificate, or, if its invariants are not
// inductive by themselves, checked as assertions by an analysis. 0: confirmed,
// 1: rejected, 2: undecided.
int validate(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  precis_cli::Validation v;
  if (ends_with(cfg.validate, ".graphml")) {
    v = precis_cli::validate_violation(cfa, precis::read_violation_graphml(cfg.validate));
  } else if (ends_with(cfg.validate, ".yml") || ends_with(cfg.validate, ".yaml")) {
#ifdef PRECIS_HAVE_CFRONT
    if (model.c_file.empty())
      throw precis::input_error({cfg.validate, 0, 0},
                                "a YAML correctness witness needs a C program or task");
    precis::ExprManager& em = *cfa.expr_manager();
    std::vector<std::pair<precis::Loc, precis::Term>> at;
    for (const auto& w : precis::c::read_correctness_witness(cfg.validate)) {
      std::vector<precis::Loc> heads;
      for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
        const auto& info = cfa.location_info(l);
        if (info.loop_line == w.line && (w.column == 0 || info.loop_column == w.column))
          heads.push_back(l);
      }
      if (heads.empty()) {
        v = {false, "no loop head at line " + std::to_string(w.line) + ", column " +
                        std::to_string(w.column) + " of the program"};
        break;
      }
      for (precis::Loc l : heads) {
        const precis::CIdentifierResolver resolve = [&](std::string_view n) {
          return precis_cli::resolve_source_name(cfa, l, n);
        };
        at.emplace_back(l, precis::parse_c_expression(w.value, em, resolve, cfg.validate));
      }
    }
    if (v.reason.empty()) {
      precis::Cvc5Options o;
      o.deadline = precis::Deadline::of(ctx.limits);
      v = precis_cli::validate_invariants(cfa, at, o);
      if (!v.confirmed) v = validate_by_analysis(model, ctx, at, v.reason);
    }
#else
    throw precis::input_error({cfg.validate, 0, 0},
                              "YAML witnesses need the C front end, which this build lacks");
#endif
  } else {
    throw precis::input_error({cfg.validate, 0, 0},
                              "unknown witness format (precis validates .graphml violation "
                              "witnesses and .yml correctness witnesses)");
  }
  std::cout << (v.confirmed   ? "confirmed"
                : v.undecided ? "undecided"
                              : "rejected")
            << ": " << v.reason << '\n';
  return v.confirmed ? 0 : v.undecided ? kUnknown : 1;
}
#endif

// Everything after option parsing. Runs on a thread with a large stack (see main).
int run(const Config& cfg, const precis::Limits& limits) {
  auto error = [&](const std::string& kind, const std::string& message,
                   const precis::SourcePosition* pos, int code) {
    if (cfg.json) {
      precis::write_json_error(std::cout, cfg.model, cfg.analysis, kind, message,
                               pos ? pos->file : std::string{}, pos ? pos->line : 0,
                               pos ? pos->column : 0);
      std::cout.flush();
    }
    std::cerr << (pos ? std::string{} : std::string("precis-verify: ")) << message << '\n';
    return code;
  };
  try {
    // Output files are opened before the run: a bad path must not throw a finished
    // verdict away.
    std::unique_ptr<std::ofstream> arg_dot;
    if (!cfg.arg_dot.empty()) {
      arg_dot = std::make_unique<std::ofstream>(cfg.arg_dot);
      if (!*arg_dot)
        throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot open the ARG DOT file for writing");
    }
    std::optional<std::ofstream> cfa_dot;
    if (!cfg.cfa_dot.empty()) {
      cfa_dot.emplace(cfg.cfa_dot);
      if (!*cfa_dot)
        throw precis::input_error({cfg.cfa_dot, 0, 0}, "cannot open the CFA DOT file for writing");
    }
    precis_cli::Watchdog watchdog(limits, 0.5, [&](const std::string& reason) {
      return unknown_report(cfg, reason, looks_like_task(cfg.model));
    });

    int rc = kUnknown;
    try {
      Model model = load_model(cfg.model, limits);
      limits.check();
      const precis::Cfa& cfa = model.cfa;
      if (cfa_dot) {
        precis::write_cfa_dot(*cfa_dot, cfa);
        cfa_dot->close();
        if (!*cfa_dot)
          throw precis::input_error({cfg.cfa_dot, 0, 0}, "cannot write the CFA DOT file");
      }
      if (!cfa.error_location())
        throw precis::input_error({cfg.model, 0, 0},
                                  "the model has no error location: nothing to verify");
      if (!cfg.validate.empty()) {
#ifdef PRECIS_HAVE_CVC5
        return validate(model, RunContext{cfg, limits, nullptr, &watchdog});
#else
        throw precis::input_error({cfg.validate, 0, 0}, "--validate needs cvc5");
#endif
      }
      const RunContext ctx{cfg, limits, arg_dot.get(), &watchdog};
      const Outcome o = run_configured(model, ctx);
      rc = report(model, ctx, o.result, o.certificate ? &*o.certificate : nullptr);
    } catch (const precis::limit_reached& e) {
      if (e.kind() == precis::LimitKind::Depth)
        throw precis::input_error({cfg.model, 0, 0}, e.what());
      // A limit struck outside the analysis (front end, clean-up, output).
      if (!watchdog.claim_output())
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      std::cout << unknown_report(cfg, e.what(), looks_like_task(cfg.model));
      rc = kUnknown;
    } catch (const std::bad_alloc&) {
      if (!watchdog.claim_output())
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      std::cout << unknown_report(
          cfg,
          cfg.memory_limit_mb ? limits.memory_reason() : std::string("memory limit: out of memory"),
          looks_like_task(cfg.model));
      rc = kUnknown;
    }
    // Output that cannot be written (a full disk, a closed pipe) is an error, not a
    // silent success.
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "precis-verify: error: cannot write the report to standard output\n";
      return kUsage;
    }
    return rc;
  } catch (const precis::input_error& e) {
    return error("input", e.what(), &e.position(), kInputError);
  } catch (const std::exception& e) {
    return error("internal", std::string("internal error: ") + e.what(), nullptr, kUsage);
  }
}

// Runs f on a thread with a 512 MB stack (reserved address space; only what is used
// becomes resident): recursive walks over terms and input structures are bounded in
// depth (ExprManager::max_depth, the readers' nesting limits), and this stack holds
// them at those bounds even under AddressSanitizer.
template <class F>
int run_on_large_stack(F&& f) {
  struct Ctx {
    F* f;
    int rc = kUsage;
  } ctx{&f};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{512} << 20U);
  pthread_t th;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Ctx*>(p);
    c->rc = (*c->f)();
    return nullptr;
  };
  if (pthread_create(&th, &attr, trampoline, &ctx) != 0) {
    pthread_attr_destroy(&attr);
    return f();  // no thread: run here with the default stack
  }
  pthread_attr_destroy(&attr);
  pthread_join(th, nullptr);
  return ctx.rc;
}

}  // namespace

int main(int argc, char** argv) {
  // The time limit covers every phase: its clock starts here, before option parsing.
  const auto started = std::chrono::steady_clock::now();
  Config cfg;
  CLI::App app{
      "precis-verify: CEGAR-based software model checking of control-flow automata.\n"
      "Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage error."};
  app.add_option("model", cfg.model,
                 "model: a .cfa file, or (with the C front end) a .c file or an SV-COMP .yml task")
      ->required();
  app.add_option("-a,--analysis", cfg.analysis,
                 "auto (default): a portfolio of analyses run in sequence, chosen from the "
                 "program's features (algorithms/portfolio.hpp; see --stages); expl: explicit "
                 "values; with cvc5 also pred-cart, pred-bool (predicate "
                 "abstraction after every edge, Cartesian / Boolean), pred-abe, pred-abe-cart "
                 "(predicate abstraction with adjustable-block encoding, see --block), "
                 "expl+pred and expl+pred-abe (explicit values with auxiliary predicates), "
                 "prod (explicit x predicate product with value enumeration, see "
                 "--prod-strategy and --limit; prod-state, prod-path, prod-arg name the strategy "
                 "directly); ai-box, ai-boxes (abstract interpretation with intervals / "
                 "disjunctions of intervals and widening, no refinement: SAFE with a "
                 "solver-checked invariant, or UNKNOWN); vinta-box, vinta-boxes (VINTA: the "
                 "same refined by interpolants guided by the AI labels), ufo-box, ufo-boxes "
                 "(with UFO's unguided DAG interpolants); synergy (Cartesian predicate "
                 "abstraction, precise on the predicate clusters refinement puts on edges, see "
                 "--synergy, --threshold, --threshold-ms)")
      ->check(CLI::IsMember([] {
        std::vector<std::string> v{"auto"};
        v.insert(v.end(), kAnalyses.begin(), kAnalyses.end());
        return v;
      }()))
      ->capture_default_str();
  app.add_option("--order", cfg.order,
                 "waitlist order (auto: rpo for the -abe analyses, bfs otherwise; rpo: reverse "
                 "postorder of the CFA, ties breadth-first)")
      ->check(CLI::IsMember({"auto", "bfs", "dfs", "target", "rpo"}))
      ->capture_default_str();
  app.add_option("--block", cfg.block,
                 "-abe analyses: abstraction points at loop-heads (ABE-l), function (loop heads, "
                 "function entries and return sites: ABE-lf) or sbe (every location)")
      ->check(CLI::IsMember({"loop-heads", "function", "sbe"}))
      ->capture_default_str();
  app.add_option("--granularity", cfg.granularity,
                 "where refined precision is added (scope = section III-F)")
      ->check(CLI::IsMember({"location", "function", "scope", "global"}))
      ->capture_default_str();
  app.add_flag("--restart", cfg.restart, "restart from the root after refinement (no pruning)");
  app.add_flag("--baseline", cfg.baseline,
               "track every variable without CEGAR (the paper's CPA-EXPL column)");
  app.add_option("-t,--time-limit", cfg.time_limit,
                 "wall-clock limit in seconds for the whole run, front end included (0: none)")
      ->transform(kFiniteNonNegative)
      ->capture_default_str();
  app.add_option("--memory-limit", cfg.memory_limit_mb,
                 "resident memory limit in MB (0: none; default: 3/4 of the machine's memory)")
      ->transform(kCount)
      ->capture_default_str();
  app.add_option("--max-refinements", cfg.max_refinements, "refinement limit (0: none)")
      ->transform(kCount);
  app.add_option("--max-nodes", cfg.max_nodes, "ARG node limit (0: none)")->transform(kCount);
  app.add_flag("--json", cfg.json, "print a JSON report on stdout (also for errors)");
  app.add_option("--interpolation", cfg.interpolation,
                 "predicate refiner's interpolation: auto (Farkas, then core + weakest "
                 "preconditions), farkas, core-wp, cvc5 (experimental)")
      ->check(CLI::IsMember({"auto", "farkas", "core-wp", "cvc5"}))
      ->capture_default_str();
  app.add_option("--split", cfg.split, "predicates from interpolants: atoms, conjuncts, whole")
      ->check(CLI::IsMember({"atoms", "conjuncts", "whole"}))
      ->capture_default_str();
  app.add_option("--bool-max-preds", cfg.bool_max_preds,
                 "Boolean abstraction falls back to Cartesian above this many predicates")
      ->transform(kCount)
      ->capture_default_str();
  app.add_option("--value-limit", cfg.value_limit,
                 "expl+pred: stop tracking a variable explicitly once it has taken more than "
                 "this many values on a path; predicates take over (0: never)")
      ->transform(kCount)
      ->capture_default_str();
  app.add_option("--prefixes", cfg.prefixes,
                 std::string("refinement selection over infeasible sliced prefixes (expl, pred-*, "
                             "expl+pred; not the -abe analyses): ") +
                     precis::prefix_selection_help)
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            try {
              (void)precis::parse_prefix_selection(v, precis::Cfa{});
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
            return {};
          },
          "SELECTORS"))
      ->capture_default_str();
  app.add_option("--limit,--prod-k", cfg.prod_k,
                 "prod: the limit k; a variable with more than k distinct values (per state, path "
                 "or ARG) leaves the explicit precision for the predicates")
      ->transform(kCount)
      ->capture_default_str();
  auto* strategy_opt =
      app.add_option("--prod-strategy", cfg.prod_strategy,
                     "prod: where the distinct values of a variable are counted: among one "
                     "state's successors (state, Alg. 1), on the ARG path (path, Alg. 2), in the "
                     "whole ARG (arg, Alg. 3)")
          ->check(CLI::IsMember({"state", "path", "arg"}))
          ->capture_default_str();
  app.add_option("--widen-every", cfg.widen_every,
                 "ai-*: widen at a loop head from its N-th update on (joins before); vinta-*, "
                 "ufo-*: WIDENWITH on every N-th unrolling of a loop head")
      ->check(CLI::Range(1U, 1000000U))
      ->capture_default_str();
  app.add_option("--widen-thresholds", cfg.widen_thresholds,
                 "ai-*, vinta-*, ufo-*: widen to the program's constants (+-1) before infinity "
                 "(auto: on for ai-*, off for vinta-* and ufo-*)")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  app.add_option("--synergy", cfg.synergy,
                 "synergy: clusters for spurious transitions (st, NewST), along spurious paths "
                 "(sp, NewSP), both, or none (Cartesian only)")
      ->check(CLI::IsMember({"st", "sp", "st+sp", "none"}))
      ->capture_default_str();
  app.add_option("--threshold", cfg.threshold,
                 "synergy: largest cluster that gets the precise abstraction: paper (13 for "
                 "spurious transitions, 17 for spurious paths), off, or N for both")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            if (v == "paper" || v == "off") return {};
            if (!v.empty() && v.size() < 10 &&
                v.find_first_not_of("0123456789") == std::string::npos && std::stoul(v) > 0)
              return {};
            return "expected paper, off or a positive number of predicates, got '" + v + "'";
          },
          "paper|off|N"))
      ->capture_default_str();
  app.add_option("--threshold-ms", cfg.threshold_ms,
                 "synergy: time budget in ms of one precise abstraction; over it the edge gets "
                 "the fast one and the cluster's size becomes the threshold for the rest of the "
                 "run (Alg. 3; 0: none)")
      ->transform(kFiniteNonNegative)
      ->capture_default_str();
  app.add_option("--solver-timeout", cfg.solver_timeout, "seconds per SMT check")
      ->transform(kFinitePositive)
      ->capture_default_str();
  app.add_option("--certify", cfg.certify,
                 "check a SAFE verdict by its certificate, an inductive invariant per location "
                 "read off the final ARG and proved by a separate solver instance (on|off; "
                 "needs cvc5; a failed check makes the verdict UNKNOWN)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--stages", cfg.stages,
                 "auto: run these analyses in this order instead of the portfolio's choice "
                 "(comma-separated --analysis names; each stage gets an equal share of the time "
                 "left: 1/n, 1/(n-1), ..., all)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            const std::vector<std::string> names = stage_names(v);
            for (const std::string& name : names)
              if (std::find(kAnalyses.begin(), kAnalyses.end(), name) == kAnalyses.end())
                return "unknown analysis '" + name + "' in --stages";
            return names.empty() || v.back() == ',' ? std::string("--stages needs analysis names")
                                                    : std::string();
          },
          "LIST"));
  app.add_option("--witness", cfg.witness,
                 "write the verdict's witness: for C programs GraphML 1.0 (UNSAFE) or YAML 2.0 "
                 "loop invariants (certified SAFE); for .cfa models JSON");
  app.add_option("--validate", cfg.validate,
                 "instead of verifying, check a witness for the model: replay a .graphml "
                 "violation witness, prove a .yml correctness witness, or check its invariants "
                 "as assertions with --analysis if they are not inductive (prints confirmed, "
                 "rejected or undecided; exit 0, 1 or 2)");
  app.add_flag("-q,--quiet", cfg.quiet, "no progress or statistics on stderr");
  app.add_option("--arg-dot", cfg.arg_dot, "write the final ARG as GraphViz DOT");
  app.add_option("--cfa-dot", cfg.cfa_dot, "write the CFA as GraphViz DOT");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    bool json = false;
    for (int i = 1; i < argc; ++i) json = json || std::string(argv[i]) == "--json";
    if (json && e.get_exit_code() != 0) {
      precis::write_json_error(std::cout, cfg.model, cfg.analysis, "usage", e.what());
      std::cout.flush();
    }
    int rc = app.exit(e);
    return rc == 0 ? 0 : kUsage;
  }
  // The baseline (track everything, no refinement) is the explicit analysis's.
  if (cfg.baseline && cfg.analysis == "auto") cfg.analysis = "expl";
  if (!cfg.stages.empty() && cfg.analysis != "auto") {
    const std::string msg = "--stages needs --analysis auto (got --analysis " + cfg.analysis + ")";
    if (cfg.json) precis::write_json_error(std::cout, cfg.model, cfg.analysis, "usage", msg);
    std::cerr << msg << '\n';
    return kUsage;
  }
  // `--analysis prod --prod-strategy S` is `--analysis prod-S`.
  if (cfg.analysis == "prod") {
    cfg.analysis = "prod-" + cfg.prod_strategy;
  } else if (strategy_opt->count() > 0 && cfg.analysis != "prod-" + cfg.prod_strategy) {
    const std::string msg =
        "--prod-strategy needs --analysis prod (got --analysis " + cfg.analysis + ")";
    if (cfg.json) precis::write_json_error(std::cout, cfg.model, cfg.analysis, "usage", msg);
    std::cerr << msg << '\n';
    return kUsage;
  }

  precis::Limits limits;
  limits.start = started;
  limits.time_limit_s = cfg.time_limit;
  limits.memory_limit_mb = cfg.memory_limit_mb;
  limits.max_arg_nodes = cfg.max_nodes;
  return run_on_large_stack([&] { return run(cfg, limits); });
}
