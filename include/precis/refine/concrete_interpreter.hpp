#pragma once
// The concrete interpreter: replays a path with concrete values for every
// nondeterministic choice (the initial value of each variable, and each havoc).
//
// No UNSAFE verdict is reported unless this replay reaches the end of the error path
// with every assume true. Evaluation is exact: if any value is unknown (overflow of
// std::int64_t, division by zero) the replay fails rather than guessing.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/expr/eval.hpp"

namespace precis {

// Values for the nondeterministic choices of a path.
struct PathInputs {
  std::vector<std::int64_t> initial;  // indexed by VarId: the value at the path's start
  std::vector<std::int64_t> havoc;    // indexed by step: the value a havoc step chooses
};

struct ReplayResult {
  bool ok = false;
  std::size_t failed_step = 0;  // valid when !ok
  std::string reason;           // why the replay failed
  // states[0] is the initial state; states[i + 1] the state after step i.
  std::vector<std::vector<std::int64_t>> states;
};

inline ReplayResult replay(const ExprManager& em, std::span<const Operation> path,
                           const PathInputs& in) {
  ReplayResult r;
  std::vector<std::int64_t> cur(em.num_vars(), 0);
  for (std::size_t v = 0; v < cur.size() && v < in.initial.size(); ++v) cur[v] = in.initial[v];
  if (in.initial.size() < em.num_vars()) {
    r.reason = "no initial value for some variable";
    return r;
  }
  for (const auto& v : em.variables())
    if (v.type == Type::Bool && cur[v.id] != 0 && cur[v.id] != 1) {
      r.reason = "non-Boolean initial value for '" + v.name + "'";
      return r;
    }
  r.states.push_back(cur);
  auto val = [&](VarId x) -> OptValue { return cur[x]; };
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Operation& op = path[i];
    auto fail = [&](std::string why) {
      r.failed_step = i;
      r.reason = std::move(why);
      return r;
    };
    if (const auto* a = std::get_if<Assume>(&op)) {
      auto c = evaluate(a->cond, val);
      if (!c) return fail("assume condition cannot be evaluated exactly");
      if (*c == 0) return fail("assume condition is false");
    } else if (const auto* s = std::get_if<Assign>(&op)) {
      auto v = evaluate(s->value, val);
      if (!v) return fail("assigned value cannot be evaluated exactly (overflow or /0)");
      cur[s->var] = *v;
    } else if (const auto* h = std::get_if<Havoc>(&op)) {
      if (i >= in.havoc.size()) return fail("no value for havoc");
      std::int64_t v = in.havoc[i];
      if (em.variable(h->var).type == Type::Bool && v != 0 && v != 1)
        return fail("non-Boolean value for havoc of a bool variable");
      cur[h->var] = v;
    }
    r.states.push_back(cur);
  }
  r.ok = true;
  return r;
}

}  // namespace precis
