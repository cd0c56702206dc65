#pragma once
// Certificates of programs with one execution: no input and no initial value decides
// any of its branches, so all its executions follow one path (or block on it), and
// that path ends within `steps` CFA edges without reaching the error location. The
// checker runs the program itself on the concrete interpreter's evaluation
// (path/concrete_interpreter.hpp, exact integers), knowing nothing of the run that
// found the certificate. Values are tracked where every execution shares them: an
// initial value, a havoc's (an input, a nondeterministic function's value, an
// uninitialized local) and whatever is computed from them (or divided by zero) has
// none; an array cell has one only where a store, or the constant array the array came
// from, wrote it. At every step it checks:
//
//  - the location is not the error location;
//  - at most one outgoing edge may be enabled: an assume whose condition holds, or has
//    no value, or an assignment or a havoc (where the only edge is an assume without a
//    value, the executions where it fails block there, and the others take it; where
//    two may be enabled, the executions may part: refused);
//  - the edge is no bound marker (core/bound_marker.hpp: the translation ends there);
//  - the execution is no longer than the certificate says.
//
// A value without one that decides no branch (an uninitialized local assigned later, a
// havoc followed only by its range assumption) chooses nothing. The path ends where a
// location has no outgoing edge (the program's end) or none is enabled (an assumption
// fails: abort, assume(0)). Every execution of the program follows this path, or a
// prefix of it and blocks, so the error location is unreachable. Like the bounded
// certificate (certify/bounded.hpp) the proof is as long as the execution, and a
// correctness witness cannot state it (precis-verify's witness gives the execution's
// value ranges at the loop heads instead, through the visitor). No solver: a build
// without cvc5 certifies these too.
//
// Random simulation (algorithms/random_simulation.hpp) proposes the certificate when a
// run ends without having chosen between edges.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/array_value.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/path/concrete_interpreter.hpp"

namespace precis {

struct CompleteRunCertificate {
  std::size_t steps = 0;  // the execution ends after at most this many CFA edges
};

struct CompleteRunCheck {
  bool valid = false;
  bool unfinished = false;  // a limit ended the check
  std::string failure;      // where and why it failed
  std::size_t steps = 0;    // edges the execution took (valid: its length)
  double seconds = 0;
};

// The values every execution shares at a location it comes to (nullopt: none), for a
// caller that wants to know more than the verdict (a witness's invariants).
using CompleteRunVisitor = std::function<void(Loc, const std::vector<OptBigInt>&)>;

inline CompleteRunCheck check_complete_run(const Cfa& cfa, const CompleteRunCertificate& cert,
                                           const Limits* limits = nullptr,
                                           const CompleteRunVisitor& visit = {}) {
  CompleteRunCheck out;
  const auto t0 = std::chrono::steady_clock::now();
  auto finish = [&]() -> CompleteRunCheck& {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  if (cfa.num_locations() == 0) {
    out.failure = "the program has no locations";
    return finish();
  }
  const ExprManager& em = cfa.exprs();
  // The values every execution shares: a scalar without one is nullopt; an array's
  // written cells are its cells, and the others have a value only where the array came
  // from a constant array (`known`): an uninitialized array filled cell by cell reads
  // what was written.
  std::vector<OptBigInt> cur(em.num_vars());
  std::map<VarId, ArrayValue> arrays;
  std::vector<bool> known(em.num_vars(), false);
  struct Val {
    const std::vector<OptBigInt>& cur;
    const std::map<VarId, ArrayValue>& arrays;
    const std::vector<bool>& known;
    OptBigInt operator()(VarId x) const { return cur[x]; }
    OptBigInt select(VarId a, const BigInt& i) const {
      const auto it = arrays.find(a);
      if (it == arrays.end()) return std::nullopt;
      if (const auto c = it->second.cells.find(i); c != it->second.cells.end()) return c->second;
      if (!known[a]) return std::nullopt;
      return it->second.fallback;
    }
  } val{cur, arrays, known};
  const std::optional<Loc> error = cfa.error_location();
  auto where = [&](Loc l) {
    return "step " + std::to_string(out.steps + 1) + " at location " + cfa.location_info(l).name;
  };
  auto fail = [&](std::string why) -> CompleteRunCheck& {
    out.failure = std::move(why);
    return finish();
  };
  try {
    Loc l = cfa.initial_location();
    for (;;) {
      if (error && l == *error)
        return fail(where(l) + ": the execution reaches the error location");
      if (limits != nullptr && (out.steps & 0xfff) == 0xfff) limits->check();
      if (visit) visit(l, cur);
      // The edges that may be enabled: an assume whose condition holds, or has no value
      // (the executions where it fails block there, without an error).
      std::optional<CfaEdge> taken;
      bool unknown = false;
      for (auto e : cfa.out_edges(l)) {
        if (const auto* a = std::get_if<Assume>(&cfa.operation(e))) {
          const OptBigInt c = evaluate_big(a->cond, val);
          if (c && *c == 0) continue;
          unknown = unknown || !c;
        }
        if (taken)
          return fail(where(l) + (unknown ? ": a condition has no value (it reads a value no step "
                                            "wrote, or divides by zero) where another edge may "
                                            "be enabled"
                                          : ": two edges are enabled"));
        taken = e;
      }
      if (!taken) break;  // the program's end, or every assumption fails
      if (out.steps == cert.steps)
        return fail("the execution takes more than " + std::to_string(cert.steps) + " steps");
      const Operation& op = cfa.operation(*taken);
      if (const auto* h = std::get_if<Havoc>(&op)) {
        const std::string& name = em.variable(h->var).name;
        if (is_bound_marker(name))
          return fail(where(l) + ": a bound of the translation (" + name + ")");
        cur[h->var].reset();
        arrays.erase(h->var);
        known[h->var] = false;
      } else if (const auto* s = std::get_if<Assign>(&op)) {
        if (s->value.type() == Type::Array) {
          bool fallback = true;  // a constant array's
          const bool ok = detail::assign_array(s->var, s->value, val, arrays, [&](Term base) {
            if (base.op() == Op::Var) fallback = known[base.var()];
          });
          if (ok) {
            known[s->var] = fallback;
          } else {  // an index or a value has none: no cell is known
            arrays.erase(s->var);
            known[s->var] = false;
          }
        } else {
          cur[s->var] = evaluate_big(s->value, val);  // nullopt: no value
        }
      }
      ++out.steps;
      l = cfa.target(*taken);
    }
  } catch (const limit_reached& e) {
    out.unfinished = true;
    return fail(std::string("certificate check not finished: ") + e.what());
  }
  out.valid = true;
  return finish();
}

}  // namespace precis
