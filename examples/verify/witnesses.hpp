#pragma once
// precis-verify's witnesses: written from a certified SAFE (its certificate)
// or a replayed UNSAFE (its counterexample), and checked by --validate.
//
//   C tasks:   violation witness in GraphML 1.0, correctness witness in YAML 2.0 with a
//              loop_invariant per source loop (C expressions over the source's names);
//   .cfa:      the same content as JSON (no standard exists).
//
// Validation: a violation witness's values for the nondeterministic calls are replayed
// on the CFA by concrete execution (each branch decided by the values; UNSAFE only if
// the error location is reached); a correctness witness's invariants are translated
// into terms through the front end's variables and proved by the certificate checker
// (certify/certificate_checker.hpp) block by block between the loop heads.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <regex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "precis/certify/certificate.hpp"
#include "precis/certify/complete_run.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/expr/c_expression.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/printer.hpp"
#include "precis/io/witness.hpp"
#include "precis/path/concrete_interpreter.hpp"
#ifdef PRECIS_HAVE_CVC5
#include "precis/certify/certificate_checker.hpp"
#endif

namespace precis_cli {

// A counterexample value as a decimal string (int64 or arbitrary precision).
template <class V>
std::string decimal(const V& v) {
  if constexpr (std::is_integral_v<V>)
    return std::to_string(v);
  else
    return v.str();
}

// A counterexample value as a C constant with that value: beyond long long with a ULL
// suffix (2^64 - 1 of a 64-bit unsigned input), -2^63 as an expression (its digits
// alone are out of range).
template <class V>
std::string c_constant(const V& v) {
  const std::string d = decimal(v);
  if (d == "-9223372036854775808") return "(-9223372036854775807LL - 1)";
  if (d.size() >= 19 && d[0] != '-' && (d.size() > 19 || d > "9223372036854775807"))
    return d + "ULL";
  return d;
}

// The source name of a CFA variable at a location: the C front end names a local `x` of
// the inlined instance `f#2` "f#2::x" and a global "x". Temporaries (__tmp, __retval),
// shadowed block locals ("x#2") and variables of other instances have none.
inline std::optional<std::string> source_name(const precis::Cfa& cfa, precis::Loc l,
                                              precis::VarId v) {
  const std::string& name = cfa.exprs().variable(v).name;
  const auto sep = name.rfind("::");
  std::string base = sep == std::string::npos ? name : name.substr(sep + 2);
  if (base.empty() || base.starts_with("__") || base.find('#') != std::string::npos)
    return std::nullopt;
  if (sep == std::string::npos) return base;  // a global
  const std::string* inst = cfa.instance_of(l);
  if (inst == nullptr || name.compare(0, sep, *inst) != 0 || inst->size() != sep)
    return std::nullopt;
  return base;
}

// The CFA variable a source name denotes at a location (a local of l's instance first,
// then a global).
inline std::optional<precis::VarId> resolve_source_name(const precis::Cfa& cfa, precis::Loc l,
                                                        std::string_view name) {
  const precis::ExprManager& em = cfa.exprs();
  if (const std::string* inst = cfa.instance_of(l))
    if (const auto* v = em.find(*inst + "::" + std::string(name))) return v->id;
  if (const auto* v = em.find(name)) return v->id;
  return std::nullopt;
}

// The function a location belongs to, as the source names it ("f" for "f#2").
inline std::string source_function(const precis::Cfa& cfa, precis::Loc l) {
  if (const std::string* inst = cfa.instance_of(l)) return inst->substr(0, inst->find('#'));
  const auto f = cfa.function_of(l);
  return f < cfa.functions().size() ? cfa.functions()[f] : std::string("main");
}

inline std::unordered_map<std::string, precis::Loc> locations_by_name(const precis::Cfa& cfa) {
  std::unordered_map<std::string, precis::Loc> m;
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l) m.emplace(cfa.name(l), l);
  return m;
}

// ---- writing --------------------------------------------------------------------------

// Above this many steps a violation witness keeps only the steps that carry a value and
// the last one: the witness automaton stutters on the program's other edges, and a run of
// 3.6 million steps (a random simulation of six loops over 100,000 cells) made a witness
// of 407 MB with every step, of 3 KB without.
inline constexpr std::size_t kDenseViolationWitnessSteps = 100'000;

// GraphML: one edge per counterexample step with a source line; a havoc step carries its
// value (\result of the nondeterministic function, or the variable's value).
// `lhs == value;` as a witness assumption; a float or double as the shortest decimal
// literal that reads back to it, NaN as `lhs != lhs` (true of NaN only).
inline std::string value_assumption(const std::string& lhs, precis::Type type,
                                    const precis::BigInt& value) {
  if (!precis::is_float(type)) return lhs + " == " + c_constant(value) + ";";
  const auto bits = precis::to_int64(value);
  if (!bits) return lhs + " == " + c_constant(value) + ";";
  const bool nan = type == precis::Type::Float32 ? std::isnan(precis::fp::to_float(*bits))
                                                 : std::isnan(precis::fp::to_double(*bits));
  if (nan) return lhs + " != " + lhs + ";";
  return lhs + " == " + precis::fp::c_literal(type, *bits) + ";";
}

inline void write_violation_witness(std::ostream& os, const precis::Cfa& cfa,
                                    const precis::Counterexample& cex,
                                    const precis::WitnessTask& task) {
  const auto at = locations_by_name(cfa);
  const bool sparse = cex.steps.size() > kDenseViolationWitnessSteps;
  std::vector<precis::ViolationStep> steps;
  for (std::size_t i = 0; i < cex.steps.size(); ++i) {
    const precis::CounterexampleStep s = cex.steps[i];
    if (s.line == 0) continue;
    precis::ViolationStep w;
    w.startline = s.line;
    const bool havoc = s.operation.starts_with("havoc ");
    if (havoc && !s.changes.empty()) {
      const auto& [var, value] = s.changes.front();
      auto it = at.find(s.from);
      const precis::Type type = cfa.exprs().variable(var).type;
      if (!s.nondet.empty()) {
        w.assumption = value_assumption("\\result", type, value);
        w.result_function = s.nondet;
      } else if (it != at.end()) {
        if (auto n = source_name(cfa, it->second, var))
          w.assumption = value_assumption(*n, type, value);
      }
      if (it != at.end() && !w.assumption.empty())
        w.assumption_scope = source_function(cfa, it->second);
    }
    if (sparse && w.assumption.empty() && i + 1 != cex.steps.size()) continue;
    steps.push_back(std::move(w));
  }
  precis::write_violation_graphml(os, task, steps);
}

// YAML 2.0: per source loop, the disjunction over its inlined instances of the
// invariant `text` gives at each CFA loop head (C over the source's names; "1" says
// nothing, and a loop where one instance says nothing gets no invariant).
inline std::size_t write_loop_invariants(std::ostream& os, const precis::Cfa& cfa,
                                         const std::function<std::string(precis::Loc)>& text,
                                         const precis::WitnessTask& task,
                                         std::string_view data_model,
                                         const std::string& file_name) {
  struct Key {
    std::uint32_t line, column;
    std::string function;
    bool operator==(const Key&) const = default;
  };
  std::vector<std::pair<Key, std::vector<std::string>>> loops;
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
    if (!cfa.is_loop_head(l)) continue;
    const auto& info = cfa.location_info(l);
    Key k{info.loop_line, info.loop_column, source_function(cfa, l)};
    auto it = std::find_if(loops.begin(), loops.end(), [&](const auto& p) { return p.first == k; });
    if (it == loops.end()) {
      loops.push_back({k, {}});
      it = loops.end() - 1;
    }
    it->second.push_back(text(l));
  }
  std::vector<precis::LoopInvariant> out;
  for (const auto& [k, texts] : loops) {
    // An instance that says nothing (1) makes the whole disjunction say nothing.
    if (std::ranges::any_of(texts, [](const std::string& t) { return t == "1"; })) continue;
    std::string value = texts.front();
    if (texts.size() > 1) {
      value = "(" + value + ")";
      for (std::size_t i = 1; i < texts.size(); ++i) value += " || (" + texts[i] + ")";
    }
    out.push_back({file_name, k.line, k.column, k.function, std::move(value)});
  }
  precis::write_correctness_yaml(os, task, out, data_model);
  return out.size();
}

// From a certificate: its invariant at each loop head, weakened to what C can say.
inline std::size_t write_correctness_witness(std::ostream& os, const precis::Cfa& cfa,
                                             const precis::Certificate& cert,
                                             const precis::WitnessTask& task,
                                             std::string_view data_model,
                                             const std::string& file_name) {
  precis::ExprManager& em = *cfa.expr_manager();
  const auto text = [&](precis::Loc l) {
    const precis::Term inv = cert.has(l) ? cert.invariant(l, em) : em.true_();
    const precis::CVariableNamer name = [&](precis::VarId v) { return source_name(cfa, l, v); };
    const precis::Term weak = precis::weaken_to_c(inv, em, name);
    return precis::to_c_expression(weak, em, name).value_or("1");
  };
  return write_loop_invariants(os, cfa, text, task, data_model, file_name);
}

// The invariants of a program with one execution (certify/complete_run.hpp, up to `steps`
// edges): at each loop head, the range of every named integer variable over the visits
// of that execution where it has a value every execution shares (`x == 3`, `0 <= i && i
// <= 10`), "0" at a loop head it never comes to. They hold (every execution follows
// that one) but need not be inductive: a validator checks them as assertions. std::nullopt
// if the run is not the only execution after all.
inline std::optional<std::vector<std::string>> complete_run_invariants(
    const precis::Cfa& cfa, std::size_t steps, const precis::Limits* limits) {
  struct Range {
    precis::VarId var;
    std::string name;
    std::optional<std::pair<precis::BigInt, precis::BigInt>> seen;
    bool valueless = false;  // some visit without a shared value
  };
  struct Head {
    bool visited = false;
    std::vector<Range> ranges;
  };
  const precis::ExprManager& em = cfa.exprs();
  std::vector<std::optional<Head>> heads(cfa.num_locations());
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
    if (!cfa.is_loop_head(l)) continue;
    Head h;
    for (const auto& v : em.variables())
      if (v.type == precis::Type::Int)
        if (auto n = source_name(cfa, l, v.id)) h.ranges.push_back({v.id, *n, {}, false});
    heads[l] = std::move(h);
  }
  const auto visit = [&](precis::Loc l, const std::vector<precis::OptBigInt>& cur) {
    if (!heads[l]) return;
    heads[l]->visited = true;
    for (Range& r : heads[l]->ranges) {
      if (r.valueless) continue;
      const precis::OptBigInt& v = cur[r.var];
      if (!v) {
        r.valueless = true;
      } else if (!r.seen) {
        r.seen.emplace(*v, *v);
      } else {
        if (*v < r.seen->first) r.seen->first = *v;
        if (*v > r.seen->second) r.seen->second = *v;
      }
    }
  };
  const auto check =
      precis::check_complete_run(cfa, precis::CompleteRunCertificate{steps}, limits, visit);
  if (!check.valid) return std::nullopt;
  std::vector<std::string> texts(cfa.num_locations(), "1");
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
    if (!heads[l]) continue;
    if (!heads[l]->visited) {
      texts[l] = "0";
      continue;
    }
    std::string t;
    for (const Range& r : heads[l]->ranges) {
      if (r.valueless || !r.seen) continue;
      if (!t.empty()) t += " && ";
      const auto& [lo, hi] = *r.seen;
      t += lo == hi ? r.name + " == " + c_constant(lo)
                    : c_constant(lo) + " <= " + r.name + " && " + r.name + " <= " + c_constant(hi);
    }
    if (!t.empty()) texts[l] = std::move(t);
  }
  return texts;
}

// .cfa models: JSON with the same content.
inline void write_cfa_violation(std::ostream& os, const precis::Cfa& cfa,
                                const precis::Counterexample& cex,
                                const precis::WitnessTask& task) {
  std::vector<precis::CfaWitnessStep> steps;
  for (const auto& s : cex.steps) {
    precis::CfaWitnessStep w;
    w.from = s.from;
    w.to = s.to;
    w.operation = s.operation;
    if (s.operation.starts_with("havoc "))
      for (const auto& [var, value] : s.changes)
        w.values.emplace_back(cfa.exprs().variable(var).name, decimal(value));
    steps.push_back(std::move(w));
  }
  precis::write_cfa_witness_json(os, task, steps);
}

inline void write_cfa_correctness(std::ostream& os, const precis::Cfa& cfa,
                                  const precis::Certificate& cert,
                                  const precis::WitnessTask& task) {
  precis::ExprManager& em = *cfa.expr_manager();
  std::vector<precis::CfaLocationInvariant> invs;
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l)
    if (cert.has(l)) invs.push_back({cfa.name(l), precis::to_string(cert.invariant(l, em), em)});
  precis::write_cfa_witness_json(os, task, invs);
}

// ---- validation -----------------------------------------------------------------------

struct Validation {
  bool confirmed = false;
  std::string reason;
  bool undecided = false;  // neither confirmed nor rejected (a limit, an UNKNOWN)
};

// Replays a violation witness by concrete execution of the CFA over exact integers. The
// witness's values (`\\result == v` for a nondeterministic call, `x == v` for another
// havoc such as an uninitialized variable) are taken in path order; a havoc takes the
// next value only if that value's waypoint is on the havoc's source line, so a witness
// that says nothing about one havoc does not shift its values onto the next. A call of a
// nondeterministic function must get a value; another havoc without one is 0, except a
// Boolean one: a choice the translation makes where C states no value (whether `fopen`
// returns null or a handle), which the replay tries both ways, depth first, true (a
// handle: an error usually follows a successful open) before false, re-executing from
// the start for each: 2^k executions at worst for k such choices on the path. Every branch must be
// decided by the values; confirmed only if the error location is reached (within max_steps edges in
// all, over every execution tried).
inline Validation validate_violation(const precis::Cfa& cfa,
                                     const precis::ParsedViolationWitness& w,
                                     std::size_t max_steps = 50'000'000) {
  struct Value {
    std::uint32_t line;
    bool result;  // \result of a call (else a variable's value)
    precis::BigInt value;
  };
  std::vector<Value> values;
  const std::regex value_re(R"((\\result|[A-Za-z_][A-Za-z_0-9]*)\s*==\s*\(?\s*(-?[0-9]+)[uUlL]*)");
  for (const auto& s : w.path) {
    std::smatch m;
    if (s.assumption.empty() || !std::regex_search(s.assumption, m, value_re)) continue;
    values.push_back({s.startline, m[1] == "\\result", *precis::parse_big_int(m[2].str())});
  }
  const precis::ExprManager& em = cfa.exprs();
  const auto err = cfa.error_location();
  const auto at_line = [&](precis::CfaEdge e) { return " at line " + std::to_string(cfa.line(e)); };
  std::size_t budget = max_steps;
  // One execution with the Boolean choices `choices` (true or false in the order met; a
  // choice beyond them is false, and is appended).
  const auto replay = [&](std::vector<bool>& choices) -> Validation {
    std::vector<precis::BigInt> state(em.num_vars(), 0);
    // Arrays start (and are havocked) as zeros, as the other havocs without a value.
    std::map<precis::VarId, precis::ArrayValue> arrays;
    struct Valuation {
      const std::vector<precis::BigInt>& state;
      const std::map<precis::VarId, precis::ArrayValue>& arrays;
      precis::OptBigInt operator()(precis::VarId x) const { return state[x]; }
      precis::OptBigInt select(precis::VarId a, const precis::BigInt& i) const {
        const auto it = arrays.find(a);
        return it == arrays.end() ? precis::BigInt(0) : it->second.at(i);
      }
    } val{state, arrays};
    std::size_t next = 0;
    std::size_t chosen_so_far = 0;
    precis::Loc cur = cfa.initial_location();
    for (; budget > 0; --budget) {
      if (err && cur == *err) return {true, "the witness's values reach the error location"};
      std::optional<precis::CfaEdge> chosen;
      for (auto e : cfa.out_edges(cur)) {
        if (const auto* a = std::get_if<precis::Assume>(&cfa.operation(e))) {
          const auto c = precis::evaluate_big(a->cond, val);
          if (!c) return {false, "the condition" + at_line(e) + " divides by zero"};
          if (*c == 0) continue;
        }
        if (chosen)
          return {false, "the execution branches nondeterministically at " + cfa.name(cur) +
                             " (line " + std::to_string(cfa.line(e)) + ")"};
        chosen = e;
      }
      if (!chosen)
        return {false, "the execution with the witness's values ends at " + cfa.name(cur) +
                           " before the error location"};
      const precis::Operation& op = cfa.operation(*chosen);
      if (const auto* s = std::get_if<precis::Assign>(&op);
          s && s->value.type() == precis::Type::Array) {
        if (!precis::detail::assign_array(s->var, s->value, val, arrays))
          return {false, "the array assignment" + at_line(*chosen) + " divides by zero"};
      } else if (s) {
        auto v = precis::evaluate_big(s->value, val);
        if (!v) return {false, "the assignment" + at_line(*chosen) + " divides by zero"};
        state[s->var] = std::move(*v);
      } else if (const auto* h = std::get_if<precis::Havoc>(&op);
                 h && em.variable(h->var).type == precis::Type::Array) {
        arrays[h->var] = precis::ArrayValue{};
      } else if (h) {
        const std::string* call = cfa.nondet_function(*chosen);
        const bool given = next < values.size() && values[next].line == cfa.line(*chosen) &&
                           values[next].result == (call != nullptr);
        if (call != nullptr && !given)
          return {false, "the witness gives no value for the call of " + *call + at_line(*chosen)};
        if (given) {
          state[h->var] = values[next++].value;
          if (em.variable(h->var).type == precis::Type::Bool && state[h->var] != 0)
            state[h->var] = 1;
        } else if (em.variable(h->var).type == precis::Type::Bool) {
          if (chosen_so_far == choices.size()) choices.push_back(true);
          state[h->var] = choices[chosen_so_far++] ? 1 : 0;
        } else {
          state[h->var] = 0;
        }
      }
      cur = cfa.target(*chosen);
    }
    return {false, "no error location within " + std::to_string(max_steps) + " steps"};
  };
  std::vector<bool> choices;
  std::optional<Validation> first;
  std::size_t executions = 0;
  for (;;) {
    Validation v = replay(choices);
    ++executions;
    if (v.confirmed) {
      if (executions > 1)
        v.reason += " (execution " + std::to_string(executions) + ", with " +
                    std::to_string(choices.size()) + " choices the witness leaves open)";
      return v;
    }
    if (!first) first = std::move(v);
    // The next choices depth first: the last true one becomes false, those after it go.
    while (!choices.empty() && !choices.back()) choices.pop_back();
    if (choices.empty() || budget == 0) break;
    choices.back() = false;
  }
  if (executions > 1)
    first->reason += " (nor does any of the " + std::to_string(executions - 1) +
                     " other executions with the choices the witness leaves open" +
                     (budget == 0 ? ", until " + std::to_string(max_steps) + " steps in all" : "") +
                     ")";
  // Choices left untried when the steps ran out: not refuted, undecided.
  if (budget == 0 && !choices.empty()) first->undecided = true;
  return *first;
}

#ifdef PRECIS_HAVE_CVC5
// Proves a correctness witness's loop invariants (already parsed per CFA loop head) as a
// certificate with invariants at those loop heads only.
inline Validation validate_invariants(const precis::Cfa& cfa,
                                      const std::vector<std::pair<precis::Loc, precis::Term>>& at,
                                      precis::Cvc5Options opts) {
  precis::ExprManager& em = *cfa.expr_manager();
  precis::Certificate c;
  c.point.assign(cfa.num_locations(), false);
  c.disjuncts.assign(cfa.num_locations(), {});
  const auto constrain = [&](precis::Loc l, precis::Term t) {
    if (!c.point[l]) {
      c.point[l] = true;
      c.disjuncts[l] = {t};
    } else {
      // Several invariants for one loop head: all must hold.
      c.disjuncts[l] = {em.and_(c.invariant(l, em), t)};
    }
  };
  constrain(cfa.initial_location(), em.true_());
  if (auto err = cfa.error_location()) {
    c.point[*err] = true;
    c.disjuncts[*err].clear();  // false: the error is unreachable
  }
  for (const auto& [l, t] : at) constrain(l, t);
  const precis::CertificateCheck r = precis::check_certificate(cfa, c, std::move(opts));
  if (r.valid)
    return {true, "the invariants are inductive and exclude the error location (" +
                      std::to_string(r.queries) + " queries)"};
  return {false, r.failure};
}
#endif

}  // namespace precis_cli
