#pragma once
// The analyses precis-verify runs, in one registry (analyses.cpp): each entry has the
// name --analysis takes, whether it needs cvc5, its description for --help and how to
// run it. --analysis, --stages, the portfolio (portfolio_run.cpp) and --validate's
// assertion check all take their analyses from it: adding an analysis is one entry.

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "config.hpp"
#include "model.hpp"
#include "precis/certify/certificate.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"

namespace precis_cli {

class Watchdog;

// What every analysis run shares: the configuration, the run's limits, the opened
// output files and the watchdog that owns the right to print when a limit strikes.
struct RunContext {
  const Config& cfg;
  const precis::Limits& limits;
  // The ARG DOT output: the file (opened up front, so a bad path fails before the run),
  // or a stage's buffer under --analysis auto.
  std::ostream* arg_dot = nullptr;
  Watchdog* watchdog = nullptr;
};

// What one analysis run gives: its result and, for a certified SAFE, the certificate
// (witnesses are written from it).
struct Outcome {
  precis::VerificationResult result;
  std::optional<precis::Certificate> certificate;
};

struct AnalysisEntry {
  std::string_view name;         // the --analysis value
  bool needs_cvc5;               // the SMT layer (pred-*, prod, ai-*, ...)
  std::string_view description;  // for --help
  // Runs the analysis cfg.analysis names on the model; null in a build without cvc5
  // when needs_cvc5.
  Outcome (*run)(const Model&, const RunContext&);
};

// The registry, in the order --help lists it.
std::span<const AnalysisEntry> analyses();

// The entry of `name`, or null.
const AnalysisEntry* find_analysis(std::string_view name);

// The --analysis help text, from the registry.
std::string analyses_help();

// The analysis ctx.cfg.analysis names (an input error for a name without an entry, or
// one that needs cvc5 in a build without it).
Outcome run_analysis(const Model& model, const RunContext& ctx);

// --analysis auto: the portfolio's stages (or --stages) in sequence (portfolio_run.cpp).
Outcome run_portfolio(const Model& model, const RunContext& ctx);
// A model whose recursion has the stack translation (model.hpp): the portfolio on it, for
// a share of the time where the inlined translation exists too, then on the inlined
// one, which then becomes `model.cfa` (what the report's witness and certificate refer
// to).
Outcome run_portfolio_both(Model& model, const RunContext& ctx);

// The run --analysis asks for: the portfolio (auto) or one analysis.
inline Outcome run_configured(const Model& model, const RunContext& ctx) {
  return ctx.cfg.analysis == "auto" ? run_portfolio(model, ctx) : run_analysis(model, ctx);
}

// A C program without a call of the error function: SAFE with the trivial certificate.
Outcome no_error_location(const Model& model, const RunContext& ctx);

}  // namespace precis_cli
