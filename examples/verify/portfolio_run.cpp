// --analysis auto (the portfolio): the stages algorithms/portfolio.hpp chooses from the
// program's features, run in sequence by algorithms/sequential.hpp, each with its share
// of the time left. A stage's verdict counts only with its evidence (a certified SAFE,
// a replayed counterexample); with --certify off an unchecked SAFE counts too. The
// report lists every stage that ran and which one decided. Every stage is an analysis of
// the registry (analyses.cpp), run by run_analysis.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "analyses.hpp"
#include "precis/algorithms/portfolio.hpp"
#include "precis/algorithms/sequential.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/teardown.hpp"
#include "precis/io/report.hpp"

namespace precis_cli {

Outcome run_portfolio(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const precis::ProgramFeatures features = precis::program_features(model.cfa);
#ifdef PRECIS_HAVE_CVC5
  const AnalysisEntry* poly = find_analysis("ai-poly");
  precis::PortfolioChoice choice =
      precis::choose_stages(features, poly != nullptr && poly->run != nullptr);
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
    stages.push_back({name, choice.stages[i].share,
                      [&, i, name](double budget) {
                        // The stages before this one parked their solvers (core/
                        // teardown.hpp): free them now, on this stage's clock, and keep
                        // the budget inside the run's own limit. The stage's clock starts
                        // before the release (freeing a deep BMC unrolling took 1.1 s, and
                        // the stage then overran its share by as much).
                        const auto stage_start = precis::Limits::clock::now();
                        budget = std::min(budget, ctx.limits.remaining_s());
                        if (auto* t = precis::DeferredTeardown::active()) t->release();
                        Config c = cfg;
                        c.analysis = name == "prod" ? "prod-" + cfg.prod_strategy : name;
                        c.time_limit = budget;
                        precis::Limits l = ctx.limits;
                        l.start = stage_start;
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
                      },
                      choice.stages[i].max_seconds});
  }
  const auto accept = [&](const precis::VerificationResult& r) {
    if (cfg.certify == "off" && r.verdict == precis::Verdict::Safe) return true;
    return precis::has_evidence(r);
  };
  // The time left, not the whole limit: the front end and the clean-up have used some
  // (20,000 branches of C: 1.4 s under load), and the stages must end by the run's limit.
  const double total = cfg.time_limit > 0 ? std::max(ctx.limits.remaining_s(), 1e-3) : 0.0;
  precis::SequentialResult seq = precis::run_sequential(stages, total, accept);
  Outcome out{std::move(seq.result), std::nullopt};
  if (seq.decided_by) out.certificate = std::move(certificates[*seq.decided_by]);
  if (ctx.arg_dot && !seq.stages.empty()) {
    const std::size_t kept = seq.decided_by.value_or(seq.stages.size() - 1);
    const std::string dot = args[kept].str();
    if (dot.empty() && !cfg.quiet)
      std::cerr << "note: " << cfg.arg_dot << " is empty: " << seq.stages[kept].name
                << " builds no ARG\n";
    *ctx.arg_dot << dot;
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

// The stack translation's share of the time (model.hpp, c_frontend.hpp's Translations):
// where either translation decided a recursive task of the sets, it did in under a
// second (bench/README.md, "Recursion with an explicit stack").
constexpr double kStackShare = 0.5;

Outcome run_portfolio_both(Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  precis::Limits first = ctx.limits;
  if (cfg.time_limit > 0 && model.inlined)
    first.time_limit_s = ctx.limits.elapsed() + ctx.limits.remaining_s() * kStackShare;
  std::ostringstream first_arg;  // (the inlined run may write the ARG file instead)
  Outcome stack;
  try {
    stack = run_portfolio(model,
                          RunContext{cfg, first, ctx.arg_dot ? &first_arg : nullptr, ctx.watchdog});
  } catch (const precis::limit_reached& e) {
    // Its share ended inside a stage; the run's own limits end the run.
    if (e.kind() == precis::LimitKind::Depth || ctx.limits.timed_out()) throw;
    stack.result.reason = e.what();
  }
  auto prefixed = [](std::vector<std::string> lines, const std::string& prefix) {
    for (std::string& l : lines) l.insert(0, prefix);
    return lines;
  };
  if (stack.result.verdict != precis::Verdict::Unknown || !model.inlined) {
    if (ctx.arg_dot) {
      *ctx.arg_dot << first_arg.str();
      if (auto* file = dynamic_cast<std::ofstream*>(ctx.arg_dot)) file->close();
      if (!*ctx.arg_dot)
        throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot write the ARG DOT file");
    }
    auto& lists = stack.result.stats.lists;
    lists["portfolio stages"] = prefixed(lists["portfolio stages"], "[recursion with a stack] ");
    if (!model.inlined && stack.result.verdict == precis::Verdict::Unknown)
      stack.result.reason +=
          " (with the stack; no inlined translation: " +
          (model.inlined_failure.empty() ? std::string("not made") : model.inlined_failure) + ")";
    return stack;
  }
  if (!cfg.quiet)
    std::fprintf(stderr, "[auto] recursion inlined to a depth (the stack translation: %s)\n",
                 stack.result.reason.c_str());
  std::swap(model.cfa, *model.inlined);  // the report refers to the deciding translation
  Outcome inlined = run_portfolio(model, ctx);
  auto& lists = inlined.result.stats.lists;
  std::vector<std::string> stages =
      prefixed(stack.result.stats.lists["portfolio stages"], "[recursion with a stack] ");
  for (std::string& l : prefixed(lists["portfolio stages"], "[recursion inlined] "))
    stages.push_back(std::move(l));
  lists["portfolio stages"] = std::move(stages);
  if (inlined.result.verdict == precis::Verdict::Unknown)
    inlined.result.reason = "recursion with a stack: " + stack.result.reason +
                            "; recursion inlined: " + inlined.result.reason;
  return inlined;
}

}  // namespace precis_cli
