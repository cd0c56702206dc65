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
#include <optional>
#include <iostream>
#include <string>

#include "precis/algorithms/cegar.hpp"
#include "precis/core/input_error.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/arg_dot.hpp"
#include "precis/io/cfa_dot.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/report.hpp"
#include "precis/refine/explicit_refiner.hpp"

#ifdef PRECIS_HAVE_CFRONT
#include "precis/frontends/c/c_frontend.hpp"
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
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
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

template <class Analysis>
int verify(const Model& model, const Config& cfg) {
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
                   s.refinements, s.created_nodes - s.pruned_nodes, s.expanded_nodes);
    };
  }
  precis::CEGAR<Analysis> cegar(cfa, o);
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
                            model.expected ? std::optional<std::string>(*model.expected ? "true" : "false")
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
                      : sv->verdict == *sv->expected ? "correct"
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

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  CLI::App app{
      "precis-verify: CEGAR-based software model checking of control-flow automata.\n"
      "Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage error."};
  app.add_option("model", cfg.model,
                 "model: a .cfa file, or (with the C front end) a .c file or an SV-COMP .yml task")
      ->required();
  app.add_option("-a,--analysis", cfg.analysis, "analysis")
      ->check(CLI::IsMember({"expl"}))
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
    return verify<precis::Expl>(model, cfg);
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
