#pragma once
// Certificates of programs with one execution: the program reads no input and makes no
// choice, so it has exactly one execution, and that execution ends within `steps` CFA
// edges without reaching the error location. The checker runs the program itself on the
// concrete interpreter's evaluation (refine/concrete_interpreter.hpp, exact integers),
// knowing nothing of the run that found the certificate, and at every step checks:
//
//  - the location is not the error location;
//  - exactly one outgoing edge is enabled (an assume whose condition holds, or an
//    assignment or a havoc), where every condition can be evaluated;
//  - the edge is no havoc (an input, a nondeterministic function's value, an
//    uninitialized local, a bound marker: core/bound_marker.hpp);
//  - every variable and array cell whose value decides the step was written before on
//    this execution (the initial state is arbitrary: a read of it is an input too);
//  - a value or an index evaluates (division by zero has no value here).
//
// The execution ends where a location has no outgoing edge (the program's end) or none
// is enabled (an assumption fails: abort, assume(0)). Every execution of the program is
// then this one, so the error location is unreachable. Like the bounded certificate
// (certify/bounded.hpp) the proof is as long as the execution, and a correctness witness
// cannot state it. No solver: a build without cvc5 certifies these too.
//
// Random simulation (algorithms/random_simulation.hpp) proposes the certificate when a
// run ends without having made a random choice.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/array_value.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/refine/concrete_interpreter.hpp"

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

inline CompleteRunCheck check_complete_run(const Cfa& cfa, const CompleteRunCertificate& cert,
                                           const Limits* limits = nullptr) {
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
  // Written values only: an unwritten scalar is nullopt, an unwritten array is absent.
  std::vector<OptBigInt> cur(em.num_vars());
  std::map<VarId, ArrayValue> arrays;
  std::vector<bool> array_written(em.num_vars(), false);
  struct Val {
    const std::vector<OptBigInt>& cur;
    const std::map<VarId, ArrayValue>& arrays;
    const std::vector<bool>& written;
    OptBigInt operator()(VarId x) const { return cur[x]; }
    OptBigInt select(VarId a, const BigInt& i) const {
      if (!written[a]) return std::nullopt;
      return arrays.at(a).at(i);
    }
  } val{cur, arrays, array_written};
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
      std::optional<CfaEdge> taken;
      for (auto e : cfa.out_edges(l)) {
        if (const auto* a = std::get_if<Assume>(&cfa.operation(e))) {
          const OptBigInt c = evaluate_big(a->cond, val);
          if (!c) return fail(where(l) + ": a condition depends on a value no step wrote");
          if (*c == 0) continue;
        }
        if (taken) return fail(where(l) + ": two edges are enabled");
        taken = e;
      }
      if (!taken) break;  // the program's end, or every assumption fails
      if (out.steps == cert.steps)
        return fail("the execution takes more than " + std::to_string(cert.steps) + " steps");
      const Operation& op = cfa.operation(*taken);
      if (std::holds_alternative<Havoc>(op))
        return fail(where(l) + ": a nondeterministic value (havoc " +
                    em.variable(std::get<Havoc>(op).var).name + ")");
      if (const auto* s = std::get_if<Assign>(&op)) {
        if (s->value.type() == Type::Array) {
          bool defined = true;
          const bool ok = detail::assign_array(s->var, s->value, val, arrays, [&](Term base) {
            if (base.op() == Op::Var && !array_written[base.var()]) defined = false;
          });
          if (!ok || !defined)
            return fail(where(l) + ": an array assignment depends on a value no step wrote");
          array_written[s->var] = true;
        } else {
          OptBigInt v = evaluate_big(s->value, val);
          if (!v) return fail(where(l) + ": an assignment depends on a value no step wrote");
          cur[s->var] = std::move(v);
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
