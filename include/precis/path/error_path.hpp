#pragma once
// An abstract error path: the CFA edges from the initial location to the error
// location, as extracted from the ARG (the sigma = <(op_1, l_1), ..., (op_n, l_n)> of
// the explicit-value paper, section III-A), and the result type of refiners.

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/path/concrete_interpreter.hpp"

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

// An array input as text: "{0: 42, 7: -1; others 0}" (at most 16 cells, then a count).
inline std::string array_text(const ArrayValue& a) {
  std::string out = "{";
  std::size_t shown = 0;
  for (const auto& [i, v] : a.cells) {
    if (shown == 16) {
      out += ", ... " + std::to_string(a.cells.size() - shown) + " more";
      break;
    }
    out += (shown++ == 0 ? "" : ", ") + to_string(i) + ": " + to_string(v);
  }
  return out + (a.cells.empty() ? "" : "; ") + "others " + to_string(a.fallback) + "}";
}

}  // namespace detail

// Builds the user-facing counterexample from a successful replay that recorded its
// changes (ReplayRecord::Changes). The replay's values move into the counterexample.
inline Counterexample make_counterexample(const Cfa& cfa, const ErrorPath& path,
                                          const PathInputs& in, ReplayResult&& r) {
  Counterexample cex;
  for (const auto& v : cfa.exprs().variables()) {
    cex.variables.push_back(v.name);
    if (v.type == Type::Array) cex.array_vars.push_back(v.id);
    cex.float_width.push_back(v.type == Type::Float32 ? 32 : v.type == Type::Float64 ? 64 : 0);
  }
  cex.initial = in.initial;
  for (const auto& [x, a] : in.arrays.initial)
    cex.array_inputs.push_back(cfa.exprs().variable(static_cast<VarId>(x)).name + " initially " +
                               detail::array_text(a));
  for (const auto& [i, a] : in.arrays.havoc)
    if (const auto* h = i < path.steps.size() ? std::get_if<Havoc>(path.steps[i].op) : nullptr)
      cex.array_inputs.push_back(cfa.exprs().variable(h->var).name + " at step " +
                                 std::to_string(i + 1) + " " + detail::array_text(a));
  cex.steps.reserve(path.steps.size());
  cex.steps.reserve_changes(r.changes.size());
  // A step's text once per CFA edge and operation (a sliced prefix puts one skip on many
  // edges): a run of millions of steps (algorithms/random_simulation.hpp) passes the same
  // few edges over and over.
  struct EdgeKey {
    const void* edge;
    const Operation* op;
    bool operator==(const EdgeKey&) const = default;
  };
  struct EdgeKeyHash {
    std::size_t operator()(const EdgeKey& k) const {
      return std::hash<const void*>()(k.edge) * 31 + std::hash<const void*>()(k.op);
    }
  };
  std::unordered_map<EdgeKey, std::uint32_t, EdgeKeyHash> text;
  std::size_t c = 0;
  for (std::size_t i = 0; i < path.steps.size(); ++i) {
    const auto& s = path.steps[i];
    auto [it, fresh] = text.try_emplace(EdgeKey{s.edge.get_property(), s.op});
    if (fresh) {
      const std::string* f = cfa.nondet_function(s.edge);
      it->second = cex.steps.add_edge({cfa.name(s.source), cfa.name(s.target),
                                       to_string(*s.op, cfa.exprs()), cfa.line(s.edge),
                                       cfa.column(s.edge), f != nullptr ? *f : std::string()});
    }
    cex.steps.push_back(it->second);
    for (; c < r.changes.size() && r.changes[c].step == i; ++c)
      cex.steps.add_change(r.changes[c].var, std::move(r.changes[c].value));
  }
  r.changes = {};
  return cex;
}

// The same from a replay the caller keeps (its changes are copied).
inline Counterexample make_counterexample(const Cfa& cfa, const ErrorPath& path,
                                          const PathInputs& in, const ReplayResult& r) {
  ReplayResult copy = r;
  return make_counterexample(cfa, path, in, std::move(copy));
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
  out.counterexample = make_counterexample(cfa, path, in, std::move(r));
  return true;
}

}  // namespace precis
