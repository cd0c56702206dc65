// precis-verify: the command-line verifier built from the precis library.
//
//   precis-verify model.cfa                      explicit-value CEGAR (the default)
//   precis-verify --baseline model.cfa           track every variable, no CEGAR
//   precis-verify --json model.cfa               machine-readable report
//
// Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage or internal error.
// The verdict and the counterexample go to stdout; progress and statistics to stderr.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "precis/algorithms/cegar.hpp"
#include "precis/core/input_error.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/arg_dot.hpp"
#include "precis/io/cfa_dot.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/report.hpp"
#include "precis/refine/explicit_refiner.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#endif

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

struct Config {
  std::string model;
  std::string analysis = "expl";
  std::string order = "bfs";
  std::string granularity = "scope";
  bool restart = false;
  bool baseline = false;
  double time_limit = 900;
  std::size_t max_refinements = 0;
  std::size_t max_nodes = 0;
  bool json = false;
  bool quiet = false;
  std::string arg_dot;
  std::string cfa_dot;
  // SMT-based analyses
  std::string interpolation = "auto";  // auto (Farkas, then core+wp), farkas, core-wp, cvc5
  std::string split = "atoms";
  std::size_t bool_max_preds = 16;
  double solver_timeout = 5;       // seconds per check
  std::uint32_t value_limit = 64;  // expl+pred: stop tracking a variable explicitly after this
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What was read: the CFA and, for an SV-COMP task, the expected verdict.
struct Model {
  precis::Cfa cfa;
  bool is_task = false;
  std::optional<bool> expected;  // SV-COMP: true = no reachable error call
};

Model load_model(const std::string& path) {
  if (ends_with(path, ".c") || ends_with(path, ".i") || ends_with(path, ".yml") ||
      ends_with(path, ".yaml")) {
#ifdef PRECIS_HAVE_CFRONT
    if (ends_with(path, ".c") || ends_with(path, ".i"))
      return {precis::c::translate_file(path), false, {}};
    precis::c::Task task = precis::c::read_task(path);
    precis::c::TranslateOptions opts;
    opts.data_model = task.data_model;
    return {precis::c::translate_file(task.c_file, opts), true, task.expected_verdict};
#else
    throw precis::input_error({path, 0, 0},
                              "C programs and SV-COMP tasks need the C front end, which this "
                              "build does not have (configure with clang 14 installed)");
#endif
  }
  return {precis::read_cfa_file(path), false, {}};
}

const char* sv_verdict(precis::Verdict v) {
  switch (v) {
    case precis::Verdict::Safe: return "true";
    case precis::Verdict::Unsafe: return "false";
    case precis::Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

template <class Analysis, class Refiner = precis::default_refiner_t<Analysis>>
int verify(const Model& model, const Config& cfg, Analysis analysis, Refiner refiner) {
  const precis::Cfa& cfa = model.cfa;
  precis::CegarOptions o;
  o.order = precis::parse_search_order(cfg.order);
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
  precis::VerificationResult r = cegar.run();

  if (!cfg.arg_dot.empty()) {
    std::ofstream f(cfg.arg_dot);
    precis::write_arg_dot(f, cegar.arg(), cfa, [&](std::ostream& os, const auto& e) {
      if constexpr (requires { precis::print(os, e, cfa.exprs()); })
        precis::print(os, e, cfa.exprs());
    });
    if (!f) throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot write the ARG DOT file");
  }

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
precis::Cvc5Options solver_options(const Config& cfg) {
  precis::Cvc5Options o;
  o.timeout_ms = static_cast<std::uint32_t>(cfg.solver_timeout * 1000);
  return o;
}

precis::PredicateRefinerOptions refiner_options(const Config& cfg) {
  precis::PredicateRefinerOptions o;
  o.solver = solver_options(cfg);
  o.split = cfg.split == "whole"       ? precis::PredicateSplit::Whole
            : cfg.split == "conjuncts" ? precis::PredicateSplit::Conjuncts
                                       : precis::PredicateSplit::Atoms;
  auto& i = o.interpolation;
  if (cfg.interpolation == "farkas") i.core_wp = false;
  if (cfg.interpolation == "core-wp") i.farkas = false;
  if (cfg.interpolation == "cvc5") i.farkas = i.core_wp = false, i.cvc5 = true;
  return o;
}

precis::PredicateOptions predicate_options(const Config& cfg) {
  precis::PredicateOptions o;
  o.boolean_max_predicates = cfg.bool_max_preds;
  o.solver = solver_options(cfg);
  return o;
}
#endif

int run_analysis(const Model& model, const Config& cfg) {
  const precis::Cfa& cfa = model.cfa;
  if (cfg.analysis == "expl") {
#ifdef PRECIS_HAVE_CVC5
    // With a solver, every explicit-feasible error path gets the exact check.
    return verify(model, cfg, precis::Expl(cfa),
                  precis::ExplicitSmtRefiner(cfa, solver_options(cfg)));
#else
    return verify(model, cfg, precis::Expl(cfa), precis::ExplicitRefiner(cfa));
#endif
  }
#ifdef PRECIS_HAVE_CVC5
  if (cfg.analysis == "pred-cart")
    return verify(model, cfg, precis::PredCart(cfa, predicate_options(cfg)),
                  precis::PredicateRefiner(cfa, refiner_options(cfg)));
  if (cfg.analysis == "pred-bool")
    return verify(model, cfg, precis::PredBool(cfa, predicate_options(cfg)),
                  precis::PredicateRefiner(cfa, refiner_options(cfg)));
  if (cfg.analysis == "expl+pred") {
    using Product = precis::ProductDomain<precis::Expl, precis::Pred>;
    using Refiner = precis::ProductRefiner<precis::ExplicitRefiner, precis::PredicateRefiner>;
    return verify(
        model, cfg,
        Product(precis::Expl(cfa, cfg.value_limit), precis::Pred(cfa, predicate_options(cfg))),
        Refiner(precis::ExplicitRefiner(cfa), precis::PredicateRefiner(cfa, refiner_options(cfg))));
  }
#else
  if (cfg.analysis == "pred-cart" || cfg.analysis == "pred-bool" || cfg.analysis == "expl+pred")
    throw precis::input_error({cfg.model, 0, 0},
                              "analysis '" + cfg.analysis +
                                  "' needs the SMT layer (cvc5), which this build does not have: "
                                  "install libcvc5-dev and reconfigure");
#endif
  throw precis::input_error({cfg.model, 0, 0}, "unknown analysis '" + cfg.analysis + "'");
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  CLI::App app{
      "precis-verify: CEGAR-based software model checking of control-flow automata.\n"
      "Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage error."};
  app.add_option("model", cfg.model,
                 "model: a .cfa file, or (with the C front end) a .c file or an SV-COMP .yml task")
      ->required();
  app.add_option("-a,--analysis", cfg.analysis,
                 "expl: explicit values; with cvc5 also pred-cart, pred-bool (predicate "
                 "abstraction, Cartesian / Boolean) and expl+pred (explicit values with "
                 "auxiliary predicates)")
      ->check(CLI::IsMember({"expl", "pred-cart", "pred-bool", "expl+pred"}))
      ->capture_default_str();
  app.add_option("--order", cfg.order, "waitlist order")
      ->check(CLI::IsMember({"bfs", "dfs", "target"}))
      ->capture_default_str();
  app.add_option("--granularity", cfg.granularity,
                 "where refined precision is added (scope = section III-F)")
      ->check(CLI::IsMember({"location", "function", "scope", "global"}))
      ->capture_default_str();
  app.add_flag("--restart", cfg.restart, "restart from the root after refinement (no pruning)");
  app.add_flag("--baseline", cfg.baseline,
               "track every variable without CEGAR (the paper's CPA-EXPL column)");
  app.add_option("-t,--time-limit", cfg.time_limit, "time limit in seconds (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-refinements", cfg.max_refinements, "refinement limit (0: none)");
  app.add_option("--max-nodes", cfg.max_nodes, "ARG node limit (0: none)");
  app.add_flag("--json", cfg.json, "print a JSON report on stdout");
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
      ->capture_default_str();
  app.add_option("--value-limit", cfg.value_limit,
                 "expl+pred: stop tracking a variable explicitly once it has taken more than "
                 "this many values on a path; predicates take over (0: never)")
      ->capture_default_str();
  app.add_option("--solver-timeout", cfg.solver_timeout, "seconds per SMT check")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("-q,--quiet", cfg.quiet, "no progress or statistics on stderr");
  app.add_option("--arg-dot", cfg.arg_dot, "write the final ARG as GraphViz DOT");
  app.add_option("--cfa-dot", cfg.cfa_dot, "write the CFA as GraphViz DOT");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kUsage;
  }

  try {
    Model model = load_model(cfg.model);
    const precis::Cfa& cfa = model.cfa;
    if (!cfg.cfa_dot.empty()) {
      std::ofstream f(cfg.cfa_dot);
      precis::write_cfa_dot(f, cfa);
      if (!f) throw precis::input_error({cfg.cfa_dot, 0, 0}, "cannot write the CFA DOT file");
    }
    if (!cfa.error_location())
      throw precis::input_error({cfg.model, 0, 0},
                                "the model has no error location: nothing to verify");
    return run_analysis(model, cfg);
  } catch (const precis::input_error& e) {
    std::cerr << e.what() << '\n';
    return kInputError;
  } catch (const std::bad_alloc&) {
    std::cout << "UNKNOWN\nReason: out of memory\n";
    return kUnknown;
  } catch (const std::exception& e) {
    std::cerr << "precis-verify: internal error: " << e.what() << '\n';
    return kUsage;
  }
}
