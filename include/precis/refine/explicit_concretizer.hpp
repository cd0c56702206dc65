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
//
// Replays keep no states (measured: one state per step of a path over 20,000 variables,
// per replay, made the search take minutes and gigabytes), the greedy search tries only
// inputs the path reads and counts its budget in replayed steps, and the run's deadline
// ends it with limit_reached.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "precis/core/limits.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/expr/invert.hpp"
#include "precis/path/concrete_interpreter.hpp"

namespace precis {

namespace detail {
// Where the current value of a variable came from: an input that is still unmodified.
struct InputOrigin {
  enum Kind : std::uint8_t { None, Initial, HavocStep } kind = Initial;
  std::size_t step = 0;
};
}  // namespace detail

namespace detail {

// Integer constants of a path, the seeds of the candidate values.
inline void path_constants(Term t, std::vector<std::int64_t>& out) {
  if (t.op() == Op::IntConst) {
    out.push_back(t.value());
    return;
  }
  for (std::size_t i = 0; i < t.num_args(); ++i) path_constants(t.arg(i), out);
}

// Targeted step: the failing assume at step k mentions a variable that still holds an
// input's value; solve the assume's literals for it. Returns true if an input changed.
inline bool fix_by_inversion(const ExprManager& em, std::span<const Operation> ops,
                             const ReplayResult& r, PathInputs& in) {
  const std::size_t k = r.failed_step;
  const auto* as = std::get_if<Assume>(&ops[k]);
  if (!as) return false;
  std::vector<InputOrigin> origin(em.num_vars());
  for (std::size_t i = 0; i < k; ++i) {
    if (const auto* h = std::get_if<Havoc>(&ops[i]))
      origin[h->var] = {InputOrigin::HavocStep, i};
    else if (const auto* a = std::get_if<Assign>(&ops[i]))
      origin[a->var] = {InputOrigin::None, 0};
  }
  const auto& state = r.state;  // before step k
  std::vector<VarId> vars;
  collect_vars(as->cond, vars);
  std::vector<std::pair<Term, bool>> lits;
  conjuncts(as->cond, true, lits);
  for (VarId x : vars) {
    if (origin[x].kind == InputOrigin::None) continue;
    auto val_without_x = [&](VarId y) -> OptValue { return to_int64(state[y]); };
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
      if (is_float(em.variable(x).type) && !fp::valid_bits(em.variable(x).type, c)) continue;
      auto val = [&](VarId y) -> OptValue { return y == x ? OptValue(c) : to_int64(state[y]); };
      auto ok = evaluate(as->cond, val);
      if (!ok || *ok == 0) continue;
      BigInt& slot =
          origin[x].kind == InputOrigin::Initial ? in.initial[x] : in.havoc[origin[x].step];
      if (slot == c) continue;
      slot = c;
      return true;
    }
  }
  return false;
}

// How far a replay gets: the number of steps executed before the first failure. Charges
// the steps replayed, at least 1024 (so at most 4096 replays of short paths), to `budget`.
inline std::size_t progress_of(const ExprManager& em, std::span<const Operation> ops,
                               const PathInputs& in, std::size_t& budget) {
  ReplayResult r = replay(em, ops, in, ReplayRecord::None);
  const std::size_t steps = std::max<std::size_t>(r.ok ? ops.size() : r.failed_step + 1, 1024);
  budget = budget > steps ? budget - steps : 0;
  return r.ok ? ops.size() + 1 : r.failed_step;
}

// The inputs that can matter: initial values the path reads before it writes them, and
// havocs whose value is read before the variable is written again (a backward liveness
// pass). The others cannot change how far a replay gets.
struct LiveInputs {
  std::vector<char> initial;  // by VarId
  std::vector<char> havoc;    // by step
};
inline LiveInputs live_inputs(const ExprManager& em, std::span<const Operation> ops) {
  LiveInputs out;
  std::vector<char> live(em.num_vars(), 0);
  out.havoc.assign(ops.size(), 0);
  std::vector<VarId> vs;
  auto read = [&](Term t) {
    vs.clear();
    collect_vars(t, vs);
    for (VarId v : vs) live[v] = 1;
  };
  for (std::size_t i = ops.size(); i-- > 0;) {
    const Operation& op = ops[i];
    if (const auto* h = std::get_if<Havoc>(&op)) {
      out.havoc[i] = live[h->var];
      live[h->var] = 0;
    } else if (const auto* a = std::get_if<Assign>(&op)) {
      live[a->var] = 0;
      read(a->value);
    } else if (const auto* as = std::get_if<Assume>(&op)) {
      read(as->cond);
    }
  }
  out.initial = std::move(live);
  return out;
}

// Greedy search: change one input at a time to a candidate value (the path's constants
// and their neighbours, small values) whenever that lets the replay get further.
// `budget` counts replayed steps.
inline bool fix_by_search(const ExprManager& em, std::span<const Operation> ops, PathInputs& in,
                          const LiveInputs& live, std::size_t& budget, const Deadline& deadline) {
  std::vector<std::int64_t> consts{0, 1, -1, 2};
  for (const auto& op : ops) {
    if (const auto* a = std::get_if<Assume>(&op)) path_constants(a->cond, consts);
    if (const auto* a = std::get_if<Assign>(&op)) path_constants(a->value, consts);
  }
  std::vector<std::int64_t> cands;
  for (auto c : consts)
    for (std::int64_t d : {0, 1, -1})
      if (auto v = arith::add(c, d)) cands.push_back(*v);
  std::sort(cands.begin(), cands.end());
  cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
  const std::size_t base = progress_of(em, ops, in, budget);
  auto try_slot = [&](BigInt& slot, bool is_bool) {
    const BigInt old = slot;
    for (auto c : cands) {
      if (c == old || (is_bool && c != 0 && c != 1)) continue;
      if (budget == 0) break;
      deadline.check();
      slot = c;
      if (progress_of(em, ops, in, budget) > base) return true;
    }
    slot = old;
    return false;
  };
  for (VarId v = 0; v < em.num_vars(); ++v)
    if (live.initial[v] && try_slot(in.initial[v], em.variable(v).type == Type::Bool)) return true;
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (const auto* h = std::get_if<Havoc>(&ops[i]))
      if (live.havoc[i] && try_slot(in.havoc[i], em.variable(h->var).type == Type::Bool))
        return true;
  return false;
}

}  // namespace detail

// Throws limit_reached when `deadline` passes during the search.
inline std::optional<PathInputs> concretize_inputs(const ExprManager& em,
                                                   std::span<const Operation> ops,
                                                   std::size_t max_attempts = 256,
                                                   const Deadline& deadline = {}) {
  PathInputs in;
  in.initial.assign(em.num_vars(), 0);
  in.havoc.assign(ops.size(), 0);
  // Bound on the steps the greedy search replays (4096 replays of a path up to 1024
  // steps, fewer of longer ones), so that long paths stay cheap.
  std::size_t budget = std::size_t{1} << 22;
  const detail::LiveInputs live = detail::live_inputs(em, ops);
  for (std::size_t attempt = 0; attempt < max_attempts; ++attempt) {
    deadline.check();
    ReplayResult r = replay(em, ops, in, ReplayRecord::None);
    if (r.ok) return in;
    if (detail::fix_by_inversion(em, ops, r, in)) continue;
    if (!std::holds_alternative<Assume>(ops[r.failed_step])) return std::nullopt;
    if (!detail::fix_by_search(em, ops, in, live, budget, deadline)) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace precis
