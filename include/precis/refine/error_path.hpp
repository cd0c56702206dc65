#pragma once
// An abstract error path: the CFA edges from the initial location to the error
// location, as extracted from the ARG (the sigma = <(op_1, l_1), ..., (op_n, l_n)> of
// the explicit-value paper, section III-A), and the result type of refiners.

#include <optional>
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
};

// Builds the user-facing counterexample from a successful replay.
inline Counterexample make_counterexample(const Cfa& cfa, const ErrorPath& path,
                                          const PathInputs& in, const ReplayResult& r) {
  Counterexample cex;
  for (const auto& v : cfa.variables()) cex.variables.push_back(v.name);
  cex.initial = in.initial;
  for (std::size_t i = 0; i < path.steps.size(); ++i) {
    const auto& s = path.steps[i];
    cex.steps.push_back(CounterexampleStep{cfa.name(s.source), cfa.name(s.target),
                                           to_string(*s.op, cfa.exprs()), cfa.line(s.edge),
                                           r.states.at(i + 1)});
  }
  return cex;
}

// The last gate before UNSAFE: replays the path with `in`; on success `out` becomes
// Feasible with the counterexample, otherwise `out.reason` says why the replay failed.
template <class P>
bool confirm_by_replay(const Cfa& cfa, const ErrorPath& path, const std::vector<Operation>& ops,
                       const PathInputs& in, Refinement<P>& out) {
  ReplayResult r = replay(cfa.exprs(), ops, in);
  if (!r.ok) {
    out.reason = "the inputs found for the error path do not replay: " + r.reason;
    return false;
  }
  out.kind = RefinementKind::Feasible;
  out.counterexample = make_counterexample(cfa, path, in, r);
  return true;
}

}  // namespace precis
