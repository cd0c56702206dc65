#pragma once
// An abstract error path: the CFA edges from the initial location to the error
// location, as extracted from the ARG (the sigma = <(op_1, l_1), ..., (op_n, l_n)> of
// the explicit-value paper, section III-A), and the result type of refiners.

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/refine/concrete_interpreter.hpp"

namespace precis {

struct ErrorPath {
  Loc start = 0;
  std::vector<EdgeRef> steps;  // steps[i] goes from l_i to l_{i+1}

  [[nodiscard]] std::size_t size() const { return steps.size(); }
  // l_i for i in [0, size()].
  [[nodiscard]] Loc location(std::size_t i) const { return i == 0 ? start : steps[i - 1].target; }
  [[nodiscard]] std::vector<Operation> operations() const {
    std::vector<Operation> ops;
    ops.reserve(steps.size());
    for (const auto& s : steps) ops.push_back(*s.op);
    return ops;
  }
};

enum class RefinementKind : std::uint8_t {
  Spurious,  // the path is infeasible; `increments` refine the precision
  Feasible,  // the path is feasible and replayed; `counterexample` is set
  Unknown    // neither could be established; `reason` says why
};

// What a refiner returns for an error path. Increments are (i, P) pairs: add P to the
// precision at location l_i of the path.
template <class P>
struct Refinement {
  RefinementKind kind = RefinementKind::Unknown;
  std::vector<std::pair<std::size_t, P>> increments;
  std::optional<Counterexample> counterexample;
  std::string reason;
  // The refiner changed a parameter of the analysis that the precision does not show
  // (e.g. a value limit, domains/explicit/value_limits.hpp): any node of the ARG may
  // now have other successors, so CEGAR rebuilds it from the root.
  bool restart = false;
};

namespace detail {

// One counterexample step from the changes a replay recorded for it: O(changes).
inline CounterexampleStep counterexample_step(CounterexampleStep step,
                                              std::span<const ReplayResult::Change> changes) {
  for (const auto& ch : changes) step.changes.emplace_back(ch.var, ch.value);
  return step;
}

}  // namespace detail

// Builds the user-facing counterexample from a successful replay that recorded its
// changes (ReplayRecord::Changes).
inline Counterexample make_counterexample(const Cfa& cfa, const ErrorPath& path,
                                          const PathInputs& in, const ReplayResult& r) {
  Counterexample cex;
  for (const auto& v : cfa.variables()) cex.variables.push_back(v.name);
  cex.initial = in.initial;
  cex.steps.reserve(path.steps.size());
  const std::span<const ReplayResult::Change> all(r.changes);
  std::size_t c = 0;
  for (std::size_t i = 0; i < path.steps.size(); ++i) {
    const auto& s = path.steps[i];
    const std::size_t first = c;
    while (c < all.size() && all[c].step == i) ++c;
    CounterexampleStep step{
        cfa.name(s.source), cfa.name(s.target), to_string(*s.op, cfa.exprs()), cfa.line(s.edge), {},
        cfa.column(s.edge), std::string()};
    if (const std::string* f = cfa.nondet_function(s.edge)) step.nondet = *f;
    cex.steps.push_back(
        detail::counterexample_step(std::move(step), all.subspan(first, c - first)));
  }
  return cex;
}

// The last gate before UNSAFE: replays the path with `in`; on success `out` becomes
// Feasible with the counterexample, otherwise `out.reason` says why the replay failed.
template <class P>
bool confirm_by_replay(const Cfa& cfa, const ErrorPath& path, const std::vector<Operation>& ops,
                       const PathInputs& in, Refinement<P>& out) {
  ReplayResult r = replay(cfa.exprs(), ops, in, ReplayRecord::Changes);
  if (!r.ok) {
    out.reason = "the inputs found for the error path do not replay: " + r.reason;
    return false;
  }
  out.kind = RefinementKind::Feasible;
  out.counterexample = make_counterexample(cfa, path, in, r);
  return true;
}

}  // namespace precis
