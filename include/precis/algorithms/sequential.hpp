#pragma once
// Sequential composition of analyses, as the verifiers users run on SV-COMP
// tasks do (CPAchecker's sequential combination of configurations, UltimateAutomizer's
// settings): run stage A with a time budget; if it does not decide, run B with a budget
// out of the time left; and so on. A stage is any callable that runs an analysis within
// a number of seconds and returns a VerificationResult, so every algorithm of the
// library (CEGAR over any domain and refiner, VINTA, abstract interpretation) is a stage
// without a copy of it:
//
//   std::vector<precis::Stage> stages{
//       {"expl+pred", 0.3, [&](double s) { return run_expl_pred(cfa, s); }},
//       {"pred-abe", 1.0, [&](double s) { return run_abe(cfa, s); }}};
//   precis::SequentialResult r = precis::run_sequential(stages, 900);
//
// A verdict ends the sequence only with its evidence (`accept`; by default a SAFE the
// independent certificate checker proved, an UNSAFE with a counterexample, which every
// analysis of the library replays before it reports it); anything else is the stage's
// UNKNOWN and the next stage runs. If no stage decides, the result is UNKNOWN with every
// stage's reason.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "precis/core/approximated_value.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/core/result.hpp"

namespace precis {

struct Stage {
  std::string name;
  // The stage's share of the time left when it starts, in (0, 1]; the last stage gets
  // all that is left whatever its share.
  double share = 1.0;
  // Runs the analysis within `seconds` (0: no limit) and returns by then.
  std::function<VerificationResult(double seconds)> run;
  // An absolute cap on the budget, in seconds (0: none; not applied to the last stage).
  // For an analysis that decides early or never: its share of a long limit is waste.
  double max_s = 0;
};

struct StageRun {
  std::string name;
  Verdict verdict = Verdict::Unknown;
  bool accepted = false;  // the verdict ended the sequence
  std::string reason;
  double budget_s = 0;  // 0: no limit
  double seconds = 0;
};

struct SequentialResult {
  VerificationResult result;
  std::vector<StageRun> stages;  // the stages that ran, in order
  std::optional<std::size_t> decided_by;
};

// A verdict with its evidence: a certified SAFE, or an UNSAFE with a counterexample.
inline bool has_evidence(const VerificationResult& r) {
  return (r.verdict == Verdict::Safe && r.certified) ||
         (r.verdict == Verdict::Unsafe && r.counterexample.has_value());
}

// Runs the stages in order within `total_s` seconds (0: no overall limit; each stage
// then runs without a budget). The decided stage's result is returned with its
// statistics; "sequential stage" in its statistics is the 1-based stage that decided.
inline SequentialResult run_sequential(
    std::span<const Stage> stages, double total_s,
    const std::function<bool(const VerificationResult&)>& accept = has_evidence) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  SequentialResult out;
  std::string reasons;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    double budget = 0;
    if (total_s > 0) {
      const double left = total_s - since(start);
      if (left <= 0) break;
      const bool last = i + 1 == stages.size();
      const double share = s.share > 0 && s.share <= 1 ? s.share : 1.0;
      budget = last ? left : left * share;
      if (!last && s.max_s > 0) budget = std::min(budget, s.max_s);
      // Whole milliseconds (never more than is left): the budget a report prints is
      // the one the user asked for (0.5 s of 1 s, not 0.499997 s after the
      // microseconds the sequence took to start).
      const double ms = std::round(budget * 1000) / 1000;
      budget = ms > 0 && ms <= left ? ms : budget;
    }
    const auto t0 = clock::now();
    VerificationResult r = s.run(budget);
    reject_bound_marker_paths(r);  // a path beyond a translation bound is no evidence
    reject_approximated_paths(r);  // nor one through an over-approximated value
    StageRun run{s.name, r.verdict, accept(r), r.reason, budget, since(t0)};
    out.stages.push_back(run);
    if (run.accepted) {
      out.result = std::move(r);
      out.decided_by = i;
      out.result.stats.extra["sequential stage"] = static_cast<double>(i + 1);
      return out;
    }
    if (!reasons.empty()) reasons += "; ";
    reasons += s.name + ": ";
    reasons += r.verdict == Verdict::Unknown
                   ? r.reason
                   : to_string(r.verdict) + std::string(" without evidence (not accepted)");
  }
  out.result.verdict = Verdict::Unknown;
  out.result.reason = stages.empty()       ? std::string("no stages to run")
                      : out.stages.empty() ? std::string("no time left for any stage")
                                           : "no stage decided (" + reasons + ")";
  if (out.stages.size() < stages.size() && !out.stages.empty())
    out.result.reason += "; the time limit left no time for the remaining stages";
  return out;
}

}  // namespace precis
