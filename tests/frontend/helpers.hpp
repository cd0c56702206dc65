#pragma once
// Shared helpers of the C front-end tests: translation of snippets, a printable edge
// list, and a deterministic executor for programs without nondeterminism.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/expr/eval.hpp"
#include "precis/frontends/c/c_frontend.hpp"
#include "precis/path/concrete_interpreter.hpp"

namespace precis::test {

inline Cfa tr(const std::string& code, c::TranslateOptions opt = {}) {
  return c::translate_source(code, "test.c", opt);
}
inline Cfa tr_raw(const std::string& code) {
  c::TranslateOptions opt;
  opt.cleanup = false;
  return c::translate_source(code, "test.c", opt);
}

// All edge operations, sorted, in .cfa statement syntax.
inline std::vector<std::string> ops(const Cfa& cfa) {
  std::vector<std::string> r;
  for (auto e : cfa.edges()) r.push_back(to_string(cfa.operation(e), cfa.exprs()));
  std::sort(r.begin(), r.end());
  return r;
}
inline bool has_op(const Cfa& cfa, const std::string& op) {
  auto all = ops(cfa);
  return std::find(all.begin(), all.end(), op) != all.end();
}
inline std::string dump(const Cfa& cfa) {
  std::string s;
  for (auto e : cfa.edges())
    s += cfa.name(cfa.source(e)) + " -> " + cfa.name(cfa.target(e)) + ": " +
         to_string(cfa.operation(e), cfa.exprs()) + "\n";
  return s;
}
inline bool error_reachable(const Cfa& cfa) {
  if (!cfa.error_location()) return false;
  std::vector<char> seen(cfa.num_locations(), 0);
  std::vector<Loc> stack{cfa.initial_location()};
  seen[cfa.initial_location()] = 1;
  while (!stack.empty()) {
    Loc l = stack.back();
    stack.pop_back();
    for (auto e : cfa.out_edges(l))
      if (!seen[cfa.target(e)]) seen[cfa.target(e)] = 1, stack.push_back(cfa.target(e));
  }
  return seen[*cfa.error_location()] != 0;
}

struct RunResult {
  bool ok = false;
  std::string why;
  Loc end{};
  std::vector<OptBigInt> values;  // by VarId; exact, as the C values of 64-bit types need
  std::vector<Operation> path;
  [[nodiscard]] std::optional<std::int64_t> value(const Cfa& cfa, const std::string& name) const {
    const Variable* v = cfa.exprs().find(name);
    if (v == nullptr || !values[v->id]) return std::nullopt;
    const BigInt& x = *values[v->id];
    if (x < INT64_MIN || x > INT64_MAX) return std::nullopt;
    return static_cast<std::int64_t>(x);
  }
};

// Executes a CFA whose every location has exactly one enabled edge and no havoc, from
// the initial location (all variables unknown) to a location without out-edges, over
// exact integers (expr/eval_big.hpp): a 64-bit C operation may pass 2^63 on the way.
inline RunResult run(const Cfa& cfa, std::size_t max_steps = 1000000) {
  RunResult r;
  const ExprManager& em = cfa.exprs();
  r.values.assign(em.num_vars(), std::nullopt);
  // Array variables: known once assigned (a constant array, stores); after a
  // havoc, the cells stored since are known and the others unknown.
  std::map<VarId, ArrayValue> arrays;
  std::set<VarId> unknown_arrays;
  for (const auto& v : em.variables())
    if (v.type == Type::Array) unknown_arrays.insert(v.id);
  struct Val {
    const RunResult& r;
    const std::map<VarId, ArrayValue>& arrays;
    const std::set<VarId>& unknown;
    OptBigInt operator()(VarId x) const { return r.values[x]; }
    OptBigInt select(VarId a, const BigInt& i) const {
      const auto it = arrays.find(a);
      if (it == arrays.end()) return std::nullopt;
      if (const auto c = it->second.cells.find(i); c != it->second.cells.end()) return c->second;
      if (unknown.count(a) != 0) return std::nullopt;
      return it->second.fallback;
    }
  } val{r, arrays, unknown_arrays};
  // The array an array term stores over (through the ites the state decides).
  auto base_of = [&](Term t) {
    for (;;) {
      if (t.op() == Op::Store) {
        t = t.arg(0);
      } else if (t.op() == Op::Ite) {
        t = t.arg(evaluate_big(t.arg(0), val).value_or(0) != 0 ? 1 : 2);
      } else {
        return t;
      }
    }
  };
  Loc l = cfa.initial_location();
  for (std::size_t step = 0; step < max_steps; ++step) {
    std::optional<CfaEdge> next;
    std::size_t enabled = 0, out = 0;
    for (auto e : cfa.out_edges(l)) {
      ++out;
      const Operation& op = cfa.operation(e);
      if (const auto* a = std::get_if<Assume>(&op)) {
        auto c = evaluate_big(a->cond, val);
        // The range assume after the havoc of an uninitialised local: the only way on.
        if (!c && cfa.out_edges(l).size() == 1) c = 1;
        if (!c) {
          r.why = "unknown condition " + to_string(op, em) + " at " + cfa.name(l);
          return r;
        }
        if (*c == 0) continue;
      }
      ++enabled;
      next = e;
    }
    if (out == 0) {
      r.ok = true;
      r.end = l;
      return r;
    }
    if (enabled != 1) {
      r.why = std::to_string(enabled) + " enabled edges at " + cfa.name(l);
      return r;
    }
    const Operation& op = cfa.operation(*next);
    // An uninitialised local: unknown until assigned (reading it fails the run).
    if (const auto* h = std::get_if<Havoc>(&op)) {
      r.values[h->var] = std::nullopt;
      if (em.variable(h->var).type == Type::Array) {
        arrays[h->var] = ArrayValue{};
        unknown_arrays.insert(h->var);
      }
    }
    // An assignment may copy an unknown value (a guarded write through a pointer keeps
    // an uninitialised cell as it is); only a condition that depends on one fails the run,
    // and a compared variable must end known.
    if (const auto* a = std::get_if<Assign>(&op)) {
      if (a->value.type() == Type::Array) {
        const Term base = base_of(a->value);
        const bool unknown_base = base.is_var() && unknown_arrays.count(base.var()) != 0;
        if (!precis::detail::assign_array(a->var, a->value, val, arrays)) {
          r.why = "array assignment with an unknown index or value: " + to_string(op, em);
          return r;
        }
        if (unknown_base)  // stores over unknown cells: the others stay unknown
          unknown_arrays.insert(a->var);
        else
          unknown_arrays.erase(a->var);
      } else {
        r.values[a->var] = evaluate_big(a->value, val);
      }
    }
    r.path.push_back(op);
    l = cfa.target(*next);
  }
  r.why = "step limit";
  return r;
}

// Replays the executed path with the core's concrete interpreter; its final state must
// agree with the executor's on every variable the executor knows.
inline bool replay_agrees(const Cfa& cfa, const RunResult& r) {
  PathInputs in;
  in.initial.assign(cfa.exprs().num_vars(), 0);
  in.havoc.assign(r.path.size(), 0);  // 0 is in the range of every type
  auto rr = replay(cfa.exprs(), r.path, in);
  if (!rr.ok) return false;
  const auto& last = rr.states.back();
  for (std::size_t v = 0; v < r.values.size(); ++v)
    if (r.values[v] && last[v] != *r.values[v]) return false;
  return true;
}

}  // namespace precis::test
