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

#include <span>
#include <vector>

#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/domains/explicit/variable_set.hpp"

namespace precis {

// Alg. 3: Interpolate(gamma-, gamma+), with gamma- given by its strongest post `v`
// (Alg. 4 passes SP_{Gamma /\ op_i}). Returns bottom if v itself is contradicting.
inline ExplicitState explicit_interpolate(ExplicitState v, std::span<const Operation> suffix) {
  if (v.is_bottom()) return v;
  // Copy the keys: v shrinks while we iterate.
  std::vector<VarId> vars;
  for (const auto& kv : v.values()) vars.push_back(kv.first);
  for (VarId x : vars) {
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
inline ExplicitInterpolants explicit_interpolants(std::span<const Operation> ops) {
  ExplicitInterpolants out;
  const std::size_t n = ops.size();
  if (!explicit_post_all(ExplicitState{}, ops).is_bottom()) return out;
  out.infeasible = true;
  out.interpolants.reserve(n + 1);
  out.interpolants.emplace_back();  // Gamma_0 = true
  ExplicitState gamma;
  for (std::size_t i = 0; i < n; ++i) {
    ExplicitState sp = explicit_post(gamma, ops[i]);
    if (i + 1 == n || sp.is_bottom()) {
      gamma = ExplicitState::bottom();
    } else if (!(sp == gamma)) {
      // If op_i left Gamma unchanged, Gamma is still minimal for the shorter suffix
      // (SP is monotone), so the interpolation can be skipped.
      gamma = explicit_interpolate(std::move(sp), ops.subspan(i + 1));
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
