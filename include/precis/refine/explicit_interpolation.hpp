#pragma once
// Interpolation for constraint sequences in the explicit-value domain (explicit-value
// paper, section III-C/D, Alg. 3 "Interpolate") and the precision extraction along an
// infeasible error path (Alg. 4 "Refine").
//
// An interpolant is an abstract variable assignment Gamma with
//   (1) SP_{gamma-}({}) implies Gamma,
//   (2) SP_{gamma+}(Gamma) is contradicting,
//   (3) def(Gamma) only names variables of both gamma- and gamma+.
// Alg. 3 starts from SP_{gamma-} and drops each variable whose removal keeps gamma+
// contradicting; Alg. 4 chains the interpolants inductively along the path.
//
// A variable that gamma+ writes before it reads it (dead at the cut) can never keep
// gamma+ contradicting, so it is dropped without the O(|gamma+|) post that Alg. 3 spends
// on each variable (measured: a chain of 20,000 assignments took minutes for one
// refinement). The result is the same as Alg. 3's; the run's deadline ends the
// interpolation with limit_reached.

#include <algorithm>
#include <cstddef>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/core/limits.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/domains/explicit/variable_set.hpp"

namespace precis {

// Which variables a path reads before it writes them, from any cut: per variable the
// steps that read or write it, O(path size) in all.
class PathLiveness {
 public:
  explicit PathLiveness(std::span<const Operation> ops) {
    std::vector<VarId> vs;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Operation& op = ops[i];
      vs.clear();
      if (const auto* a = std::get_if<Assume>(&op)) collect_vars(a->cond, vs);
      if (const auto* a = std::get_if<Assign>(&op)) collect_vars(a->value, vs);
      for (VarId v : vs) events_[v].push_back({i, true});
      if (auto w = written_var(op); w && !std::binary_search(vs.begin(), vs.end(), *w))
        events_[*w].push_back({i, false});
    }
  }
  // The value of x at `cut` is read by steps >= cut before they overwrite it.
  [[nodiscard]] bool live_at(VarId x, std::size_t cut) const {
    auto it = events_.find(x);
    if (it == events_.end()) return false;
    const auto& ev = it->second;
    auto e = std::lower_bound(ev.begin(), ev.end(), cut,
                              [](const Event& a, std::size_t c) { return a.step < c; });
    return e != ev.end() && e->read;
  }

 private:
  struct Event {
    std::size_t step = 0;
    bool read = false;  // reads x (perhaps also writes it), else only writes it
  };
  std::unordered_map<VarId, std::vector<Event>> events_;
};

// Alg. 3: Interpolate(gamma-, gamma+), with gamma- given by its strongest post `v`
// (Alg. 4 passes SP_{Gamma /\ op_i}). Returns bottom if v itself is contradicting.
// With `live` (the liveness of the whole path, gamma+ starting at cut `cut`), dead
// variables are dropped first, without a post.
inline ExplicitState explicit_interpolate(ExplicitState v, std::span<const Operation> suffix,
                                          const PathLiveness* live = nullptr, std::size_t cut = 0,
                                          const Deadline& deadline = {}) {
  if (v.is_bottom()) return v;
  // Copy the keys: v shrinks while we iterate.
  std::vector<VarId> vars;
  for (const auto& kv : v.values()) vars.push_back(kv.first);
  if (live)
    for (VarId x : vars)
      if (!live->live_at(x, cut)) v.forget(x);
  for (VarId x : vars) {
    if (!v.has(x)) continue;
    deadline.check();
    ExplicitState w = v;
    w.forget(x);
    // x is not relevant if gamma+ stays contradicting without it.
    if (explicit_post_all(w, suffix).is_bottom()) v = std::move(w);
  }
  return v;
}

struct ExplicitInterpolants {
  bool infeasible = false;
  // interpolants[i] is Gamma_i at location l_i, i in [0, n]: Gamma_0 = {} (true),
  // Gamma_n = bottom (false).
  std::vector<ExplicitState> interpolants;
};

// Alg. 4 (first half): the inductive sequence of interpolants of an infeasible path.
// If the path is not contradicting in the explicit domain, `infeasible` is false.
// Throws limit_reached when `deadline` passes.
inline ExplicitInterpolants explicit_interpolants(std::span<const Operation> ops,
                                                  const Deadline& deadline = {}) {
  ExplicitInterpolants out;
  const std::size_t n = ops.size();
  if (!explicit_post_all(ExplicitState{}, ops).is_bottom()) return out;
  out.infeasible = true;
  out.interpolants.reserve(n + 1);
  out.interpolants.emplace_back();  // Gamma_0 = true
  const PathLiveness live(ops);
  ExplicitState gamma;
  for (std::size_t i = 0; i < n; ++i) {
    deadline.check();
    ExplicitState sp = explicit_post(gamma, ops[i]);
    if (i + 1 == n || sp.is_bottom()) {
      gamma = ExplicitState::bottom();
    } else if (!(sp == gamma)) {
      // If op_i left Gamma unchanged, Gamma is still minimal for the shorter suffix
      // (SP is monotone), so the interpolation can be skipped. So it can if op_i only
      // wrote a variable that is dead after it: without that variable SP is Gamma, and
      // the suffix decides every other variable as it did for op_i's suffix.
      const auto w = written_var(ops[i]);
      if (w && !live.live_at(*w, i + 1)) {
        ExplicitState rest = sp;
        rest.forget(*w);
        if (rest == gamma) {
          out.interpolants.push_back(gamma);
          continue;
        }
      }
      gamma = explicit_interpolate(std::move(sp), ops.subspan(i + 1), &live, i + 1, deadline);
    }
    out.interpolants.push_back(gamma);
  }
  return out;
}

// Alg. 4: Refine(sigma). Returns Pi(l_i) for i in [1, n-1] as (i, variables) pairs
// (locations with an empty increment are omitted).
inline std::vector<std::pair<std::size_t, VariableSet>> explicit_refine(
    const ExplicitInterpolants& itps) {
  std::vector<std::pair<std::size_t, VariableSet>> out;
  if (!itps.infeasible) return out;
  for (std::size_t i = 1; i + 1 < itps.interpolants.size(); ++i) {
    const auto& g = itps.interpolants[i];
    if (g.is_bottom() || g.size() == 0) continue;
    VariableSet vs;
    for (const auto& kv : g.values()) vs.insert(kv.first);
    out.emplace_back(i, std::move(vs));
  }
  return out;
}

}  // namespace precis
