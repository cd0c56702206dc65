#pragma once
// Finding concrete inputs for an error path without a solver.
//
// The explicit feasibility check (full-precision SP) says a path is not contradicting,
// but values read from nondeterministic inputs stay unknown. This search proposes
// values for the inputs (initial values and havocs), replays the path with the
// concrete interpreter and, when an assume fails on a variable that still holds an
// input's value, solves the failing condition for that input and tries again. Any
// answer is confirmed by the replay, so the search can only fail, never lie; the SMT
// layer gives exact inputs where this search gives up.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/expr/invert.hpp"
#include "precis/refine/concrete_interpreter.hpp"

namespace precis {

namespace detail {
// Where the current value of a variable came from: an input that is still unmodified.
struct InputOrigin {
  enum Kind : std::uint8_t { None, Initial, HavocStep } kind = Initial;
  std::size_t step = 0;
};
}  // namespace detail

inline std::optional<PathInputs> concretize_inputs(const ExprManager& em,
                                                   std::span<const Operation> ops,
                                                   std::size_t max_attempts = 256) {
  PathInputs in;
  in.initial.assign(em.num_vars(), 0);
  in.havoc.assign(ops.size(), 0);
  for (std::size_t attempt = 0; attempt < max_attempts; ++attempt) {
    ReplayResult r = replay(em, ops, in);
    if (r.ok) return in;
    const std::size_t k = r.failed_step;
    const auto* as = std::get_if<Assume>(&ops[k]);
    if (!as) return std::nullopt;  // overflow or division by zero: nothing to choose
    // Origins of the values at step k.
    std::vector<detail::InputOrigin> origin(em.num_vars());
    for (std::size_t i = 0; i < k; ++i) {
      if (const auto* h = std::get_if<Havoc>(&ops[i]))
        origin[h->var] = {detail::InputOrigin::HavocStep, i};
      else if (const auto* a = std::get_if<Assign>(&ops[i]))
        origin[a->var] = {detail::InputOrigin::None, 0};
    }
    const auto& state = r.states[k];
    std::vector<VarId> vars;
    collect_vars(as->cond, vars);
    std::vector<std::pair<Term, bool>> lits;
    detail::conjuncts(as->cond, true, lits);
    bool fixed = false;
    for (VarId x : vars) {
      if (origin[x].kind == detail::InputOrigin::None) continue;
      auto val_without_x = [&](VarId y) -> OptValue { return state[y]; };
      // Candidate values: solutions of each literal's sides for x, and their neighbours.
      std::vector<std::int64_t> cands{0, 1, -1};
      for (auto [lit, pos] : lits) {
        if (lit.num_args() != 2 || lit.arg(0).is_bool()) {
          if (lit.is_var() && lit.var() == x) cands.push_back(pos ? 1 : 0);
          continue;
        }
        for (int side = 0; side < 2; ++side) {
          Term a = lit.arg(side), b = lit.arg(1 - side);
          if (occurrences(a, x) != 1 || occurrences(b, x) != 0) continue;
          auto t = evaluate(b, val_without_x);
          if (!t) continue;
          for (std::int64_t d : {0, 1, -1}) {
            auto td = arith::add(*t, d);
            if (!td) continue;
            if (auto v = invert(a, x, *td, val_without_x)) cands.push_back(*v);
          }
        }
      }
      for (std::int64_t c : cands) {
        if (em.variable(x).type == Type::Bool && c != 0 && c != 1) continue;
        auto val = [&](VarId y) -> OptValue { return y == x ? OptValue(c) : OptValue(state[y]); };
        auto ok = evaluate(as->cond, val);
        if (ok && *ok != 0) {
          if (origin[x].kind == detail::InputOrigin::Initial) {
            if (in.initial[x] == c) continue;
            in.initial[x] = c;
          } else {
            if (in.havoc[origin[x].step] == c) continue;
            in.havoc[origin[x].step] = c;
          }
          fixed = true;
          break;
        }
      }
      if (fixed) break;
    }
    if (!fixed) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace precis
