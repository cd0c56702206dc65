// precis-verify's command-line options: their registration on the CLI11 app, their
// validators, and the checks across options after parsing.

#include "config.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "analyses.hpp"
#include "model.hpp"
#include "precis/io/report.hpp"
#include "precis/refine/refinement_selection.hpp"

namespace precis_cli {

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

namespace {

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

CLI::Validator count_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
          return "'" + v + "' is not a non-negative whole number";
        return {};
      },
      "N>=0");
}

// --analysis: auto or a name of the registry.
std::vector<std::string> analysis_names() {
  std::vector<std::string> v{"auto"};
  for (const AnalysisEntry& a : analyses()) v.emplace_back(a.name);
  return v;
}

// --stages: a comma-separated list of the registry's names.
CLI::Validator stages_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        const std::vector<std::string> names = stage_names(v);
        for (const std::string& name : names)
          if (find_analysis(name) == nullptr) return "unknown analysis '" + name + "' in --stages";
        return names.empty() || v.back() == ',' ? std::string("--stages needs analysis names")
                                                : std::string();
      },
      "LIST");
}

// --prefixes: what precis::parse_prefix_selection reads.
CLI::Validator prefixes_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v == "auto") return {};
        try {
          (void)precis::parse_prefix_selection(v, precis::Cfa{});
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
        return {};
      },
      "SELECTORS");
}

// --threshold: paper, off or a positive number.
CLI::Validator threshold_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v == "paper" || v == "off") return {};
        if (!v.empty() && v.size() < 10 && v.find_first_not_of("0123456789") == std::string::npos &&
            std::stoul(v) > 0)
          return {};
        return "expected paper, off or a positive number of predicates, got '" + v + "'";
      },
      "paper|off|N");
}

// The options whose presence (not only value) the checks after parsing need.
struct OptionHandles {
  CLI::Option* prod_strategy = nullptr;
};

// Registers every option of precis-verify on `app`, storing into `cfg`.
OptionHandles add_options(CLI::App& app, Config& cfg) {
  const CLI::Validator finite_non_negative = seconds_validator(true);
  const CLI::Validator finite_positive = seconds_validator(false);
  const CLI::Validator count = count_validator();
  OptionHandles handles;
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "print the version, the git revision and what the build has, and exit");
  app.add_option("model", cfg.model,
                 "model: a .cfa file, or (with the C front end) a .c file or an SV-COMP .yml task")
      ->required();
  app.add_option("-a,--analysis", cfg.analysis, analyses_help())
      ->check(CLI::IsMember(analysis_names()))
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
      ->transform(finite_non_negative)
      ->capture_default_str();
  app.add_option("--memory-limit", cfg.memory_limit_mb,
                 "resident memory limit in MB (0: none; default: 3/4 of the machine's memory)")
      ->transform(count)
      ->capture_default_str();
  app.add_option("--max-refinements", cfg.max_refinements, "refinement limit (0: none)")
      ->transform(count);
  app.add_option("--max-nodes", cfg.max_nodes, "ARG node limit (0: none)")->transform(count);
  app.add_flag("--json", cfg.json, "print a JSON report on stdout (also for errors)");
  app.add_option("--data-model", cfg.data_model,
                 "data model of a bare C program (.c, .i): ILP32 (default, as SV-COMP's C "
                 "tasks) or LP64; a task (.yml) has its own; not for a .cfa model")
      ->check(CLI::IsMember({"ILP32", "LP64"}));
  app.add_option("--array-cells", cfg.array_cells,
                 "C arrays of at most this many elements are encoded cell by cell, larger "
                 "ones as one SMT array (0: every array is an SMT array)")
      ->transform(count)
      ->capture_default_str();
  app.add_option("--recursion", cfg.recursion,
                 "C recursion: inline (up to a depth; deeper calls are a bound), stack "
                 "(procedures with an explicit stack, exact at any depth), auto (the stack "
                 "where it can be; the portfolio tries the inlined translation after it)")
      ->check(CLI::IsMember({"auto", "inline", "stack"}))
      ->capture_default_str();
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
      ->transform(count)
      ->capture_default_str();
  app.add_option("--value-limit", cfg.value_limit,
                 "expl+pred: stop tracking a variable explicitly once it has taken more than "
                 "this many values on a path; predicates take over (0: never)")
      ->transform(count)
      ->capture_default_str();
  app.add_option("--prefixes", cfg.prefixes,
                 std::string("refinement selection over infeasible sliced prefixes (expl, pred-*, "
                             "expl+pred; not the -abe analyses): auto (all for expl+pred, domain "
                             "otherwise) or ") +
                     precis::prefix_selection_help)
      ->check(prefixes_validator())
      ->capture_default_str();
  app.add_option("--limit,--prod-k", cfg.prod_k,
                 "prod: the limit k; a variable with more than k distinct values (per state, path "
                 "or ARG) leaves the explicit precision for the predicates")
      ->transform(count)
      ->capture_default_str();
  handles.prod_strategy =
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
      ->check(threshold_validator())
      ->capture_default_str();
  app.add_option("--threshold-ms", cfg.threshold_ms,
                 "synergy: time budget in ms of one precise abstraction; over it the edge gets "
                 "the fast one and the cluster's size becomes the threshold for the rest of the "
                 "run (Alg. 3; 0: none)")
      ->transform(finite_non_negative)
      ->capture_default_str();
  app.add_option("--solver-timeout", cfg.solver_timeout, "seconds per SMT check")
      ->transform(finite_positive)
      ->capture_default_str();
  app.add_option("--invariants", cfg.invariants,
                 "run abstract interpretation with zones or octagons first; its invariant, "
                 "proved inductive by the solver, strengthens the loop conditions of the CFA "
                 "the analysis runs on, or is the proof when it excludes the error (none|zone|oct)")
      ->check(CLI::IsMember({"none", "zone", "oct"}))
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
      ->check(stages_validator());
  app.add_option("--certify-candidate", cfg.certify_candidate,
                 "try a smaller invariant before the certificate: the box hull of the explicit "
                 "states per location (hull), proved inductive by itself, the full certificate "
                 "only if it fails (none|hull)")
      ->check(CLI::IsMember({"none", "hull"}))
      ->capture_default_str();
  auto* witness =
      app.add_option("--witness", cfg.witness,
                     "write the verdict's witness: for C programs GraphML 1.0 (UNSAFE) or YAML 2.0 "
                     "loop invariants (certified SAFE); for .cfa models JSON");
  app.add_option("--witness-dir", cfg.witness_dir,
                 "write the witness into this folder under SV-COMP's names: witness.graphml "
                 "(UNSAFE) or witness.yml (certified SAFE); witness.json for .cfa models")
      ->excludes(witness)
      ->check(CLI::ExistingDirectory);
  app.add_option("--validate", cfg.validate,
                 "instead of verifying, check a witness for the model: replay a .graphml "
                 "violation witness, prove a .yml correctness witness, or check its invariants "
                 "as assertions with --analysis if they are not inductive (prints confirmed, "
                 "rejected or undecided; exit 0, 1 or 2)");
#ifdef PRECIS_CLI_HAVE_CHC
  app.add_option("--emit-chc", cfg.emit_chc,
                 "instead of verifying, write the model's constrained Horn clauses (SMT-LIB "
                 "HORN) to FILE ('-': stdout) and exit 0");
#endif
  app.add_flag("-q,--quiet", cfg.quiet, "no progress or statistics on stderr");
  app.add_option("--arg-dot", cfg.arg_dot, "write the final ARG as GraphViz DOT");
  app.add_option("--cfa-dot", cfg.cfa_dot, "write the CFA as GraphViz DOT");
  return handles;
}

// The checks across options after parsing; normalises cfg. Throws usage_error.
void finish_options(Config& cfg, const OptionHandles& given) {
  // The baseline (track everything, no refinement) is the explicit analysis's.
  if (cfg.baseline && cfg.analysis == "auto") cfg.analysis = "expl";
  if (!cfg.stages.empty() && cfg.analysis != "auto")
    throw usage_error("--stages needs --analysis auto (got --analysis " + cfg.analysis + ")");
  // `--analysis prod --prod-strategy S` is `--analysis prod-S`.
  if (cfg.analysis == "prod") {
    cfg.analysis = "prod-" + cfg.prod_strategy;
  } else if (given.prod_strategy->count() > 0 && cfg.analysis != "prod-" + cfg.prod_strategy) {
    throw usage_error("--prod-strategy needs --analysis prod (got --analysis " + cfg.analysis +
                      ")");
  }
  // A .cfa model has no C types.
  if (cfg.array_cells != kDefaultArrayCells && !is_c_input(cfg.model))
    throw usage_error("--array-cells applies to C programs (.c, .i) and tasks, not to the model " +
                      cfg.model);
  if (cfg.recursion != "auto" && !is_c_input(cfg.model))
    throw usage_error("--recursion applies to C programs (.c, .i) and tasks, not to the model " +
                      cfg.model);
  if (!cfg.data_model.empty() && !is_c_input(cfg.model))
    throw usage_error("--data-model applies to C programs (.c, .i) and tasks, not to the model " +
                      cfg.model);
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, Config& cfg) {
  CLI::App app{
      "precis-verify: CEGAR-based software model checking of control-flow automata.\n"
      "Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage error."};
  const OptionHandles options = add_options(app, cfg);
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
  try {
    finish_options(cfg, options);
  } catch (const usage_error& e) {
    if (cfg.json) precis::write_json_error(std::cout, cfg.model, cfg.analysis, "usage", e.what());
    std::cerr << e.what() << '\n';
    return kUsage;
  }
  return std::nullopt;
}

}  // namespace precis_cli
