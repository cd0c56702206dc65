#pragma once
// The concrete interpreter: replays a path with concrete values for every
// nondeterministic choice (the initial value of each variable, and each havoc).
//
// No UNSAFE verdict is reported unless this replay reaches the end of the error path
// with every assume true. Evaluation is exact over the mathematical integers: values are
// arbitrary-precision (core/big_int.hpp, expr/eval_big.hpp), so nothing wraps and no
// value is out of range; a division by zero makes the replay fail rather than guess.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/array_value.hpp"
#include "precis/core/big_int.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/floating_point.hpp"

namespace precis {

// Values for the nondeterministic choices of a path.
struct PathInputs {
  std::vector<BigInt> initial;  // indexed by VarId: the value at the path's start
  std::vector<BigInt> havoc;    // indexed by step: the value a havoc step chooses
  ArrayInputs arrays;           // the same for array variables (zeros where missing)
};

// What a replay keeps besides its verdict. A path of n steps over m variables has
// n * m values in its states: 3.2 GB for 20,000 x 20,000, so the refiners ask
// for the changes (O(n)) or nothing, and only small callers for every state.
enum class ReplayRecord : std::uint8_t {
  States,   // states[i]: every variable's value at cut i (O(n * m))
  Changes,  // changes: the variable each executed step wrote and its new value (O(n))
  None      // only `state`
};

struct ReplayResult {
  bool ok = false;
  std::size_t failed_step = 0;  // valid when !ok
  std::string reason;           // why the replay failed
  // The state where the replay stopped: after the last step, or before the failed one.
  std::vector<BigInt> state;
  // ReplayRecord::States: states[0] is the initial state; states[i + 1] the state after
  // step i.
  std::vector<std::vector<BigInt>> states;
  // The arrays where the replay stopped, by VarId (array variables only; their slot in
  // `state` stays 0, and neither `states` nor `changes` records them).
  std::map<VarId, ArrayValue> arrays;
  // ReplayRecord::Changes: one entry per executed assignment or havoc, in step order.
  struct Change {
    std::size_t step = 0;
    VarId var = 0;
    BigInt value = 0;
  };
  std::vector<Change> changes;
};

namespace detail {

// x := t for an array term t (a variable, stores over it, a constant array, an ite of
// them) in the replay's state; false when an index, a value or a condition cannot be
// evaluated. Stores over x itself update x's cells in place, so a loop that fills an
// array costs one map update per cell. `on_base` sees the array the stores apply to (a
// variable or a constant array) before they are applied (the simulator follows where an
// array's unwritten cells come from, algorithms/random_simulation.hpp).
template <class V, class OnBase = void (*)(Term)>
bool assign_array(
    VarId x, Term t, const V& val, std::map<VarId, ArrayValue>& arrays,
    OnBase on_base = [](Term) {}) {
  std::vector<std::pair<BigInt, BigInt>> writes;  // outermost first
  Term a = t;
  for (;;) {
    if (a.op() == Op::Store) {
      auto i = evaluate_big(a.arg(1), val);
      auto v = evaluate_big(a.arg(2), val);
      if (!i || !v) return false;
      writes.emplace_back(std::move(*i), std::move(*v));
      a = a.arg(0);
    } else if (a.op() == Op::Ite) {
      auto c = evaluate_big(a.arg(0), val);
      if (!c) return false;
      a = a.arg(*c != 0 ? 1 : 2);
    } else {
      break;
    }
  }
  ArrayValue base;
  if (a.op() == Op::ConstArray) {
    base.fallback = a.arg(0).value();
  } else if (a.op() == Op::Var && a.var() != x) {
    base = arrays[a.var()];
  } else if (a.op() != Op::Var) {
    return false;
  }
  on_base(a);
  ArrayValue& target = arrays[x];
  if (a.op() != Op::Var || a.var() != x) target = std::move(base);
  for (auto it = writes.rbegin(); it != writes.rend(); ++it) target.set(it->first, it->second);
  return true;
}

// Whether v is the bit pattern of a value of the floating-point type t (the canonical NaN
// the only NaN, expr/floating_point.hpp).
inline bool float_value(Type t, const BigInt& v) {
  const auto bits = to_int64(v);
  return bits && fp::valid_bits(t, *bits);
}

}  // namespace detail

inline ReplayResult replay(const ExprManager& em, std::span<const Operation> path,
                           const PathInputs& in, ReplayRecord record = ReplayRecord::States) {
  ReplayResult r;
  std::vector<BigInt>& cur = r.state;
  std::map<VarId, ArrayValue>& arrays = r.arrays;
  cur.assign(em.num_vars(), 0);
  for (std::size_t v = 0; v < cur.size() && v < in.initial.size(); ++v) cur[v] = in.initial[v];
  if (in.initial.size() < em.num_vars()) {
    r.reason = "no initial value for some variable";
    return r;
  }
  for (const auto& v : em.variables()) {
    if (v.type == Type::Bool && cur[v.id] != 0 && cur[v.id] != 1) {
      r.reason = "non-Boolean initial value for '" + v.name + "'";
      return r;
    }
    if (is_float(v.type) && !detail::float_value(v.type, cur[v.id])) {
      r.reason = "initial value of '" + v.name + "' is no " + to_string(v.type) + " value";
      return r;
    }
    if (v.type == Type::Array) {
      cur[v.id] = 0;
      auto it = in.arrays.initial.find(v.id);
      arrays[v.id] = it == in.arrays.initial.end() ? ArrayValue{} : it->second;
    }
  }
  if (record == ReplayRecord::States) r.states.push_back(cur);
  struct Val {
    const std::vector<BigInt>& cur;
    const std::map<VarId, ArrayValue>& arrays;
    OptBigInt operator()(VarId x) const { return cur[x]; }
    OptBigInt select(VarId a, const BigInt& i) const {
      auto it = arrays.find(a);
      if (it == arrays.end()) return BigInt(0);
      return it->second.at(i);
    }
  } val{cur, arrays};
  auto write = [&](std::size_t step, VarId x, BigInt v) {
    if (record == ReplayRecord::Changes) r.changes.push_back({step, x, v});
    cur[x] = std::move(v);
  };
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Operation& op = path[i];
    auto fail = [&](std::string why) {
      r.failed_step = i;
      r.reason = std::move(why);
      return r;
    };
    if (const auto* a = std::get_if<Assume>(&op)) {
      auto c = evaluate_big(a->cond, val);
      if (!c) return fail("assume condition cannot be evaluated (division by zero)");
      if (*c == 0) return fail("assume condition is false");
    } else if (const auto* s = std::get_if<Assign>(&op)) {
      if (s->value.type() == Type::Array) {
        if (!detail::assign_array(s->var, s->value, val, arrays))
          return fail("assigned array cannot be evaluated (division by zero)");
      } else {
        auto v = evaluate_big(s->value, val);
        if (!v) return fail("assigned value cannot be evaluated (division by zero)");
        write(i, s->var, std::move(*v));
      }
    } else if (const auto* h = std::get_if<Havoc>(&op)) {
      if (em.variable(h->var).type == Type::Array) {
        auto it = in.arrays.havoc.find(i);
        arrays[h->var] = it == in.arrays.havoc.end() ? ArrayValue{} : it->second;
      } else {
        if (i >= in.havoc.size()) return fail("no value for havoc");
        const BigInt& v = in.havoc[i];
        if (em.variable(h->var).type == Type::Bool && v != 0 && v != 1)
          return fail("non-Boolean value for havoc of a bool variable");
        if (is_float(em.variable(h->var).type) && !detail::float_value(em.variable(h->var).type, v))
          return fail(
              "havoc of a floating-point variable with a value that is no bit pattern of it");
        write(i, h->var, v);
      }
    }
    if (record == ReplayRecord::States) r.states.push_back(cur);
  }
  r.ok = true;
  return r;
}

}  // namespace precis
