#pragma once
// The check every UNSAFE counterexample of every suite passes: it is a path of the CFA and
// the concrete interpreter replays it.
//
// - Each step is an edge of the CFA: an edge from the step's source to its target location
//   whose operation prints as the step's operation, with the step's nondeterministic
//   function; the first step leaves the initial location, the last enters the error
//   location, and each step starts where the one before ended.
// - The path replays on the concrete interpreter (path/concrete_interpreter.hpp, exact
//   integers) from the counterexample's initial values, each havoc choosing the value the
//   counterexample records for its step and each array input read back from its text:
//   every assume holds, and the replay writes exactly the changes the counterexample
//   reports, step by step.
//
// The refiners replayed the path before reporting it; this checks what they reported, from
// the CFA and the text alone, so a counterexample that was built wrongly, or a verdict whose
// path does not exist, fails here whatever the analysis believed.

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/core/array_value.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/result.hpp"
#include "precis/path/concrete_interpreter.hpp"

namespace precis::testing {

namespace detail {

// The array value of an array input's text, "{i: v, ...; others f}" (or "{others f}") as
// make_counterexample writes it (path/error_path.hpp); nullopt for a shortened text
// ("..., ... n more") or anything else.
inline std::optional<ArrayValue> parse_array_text(const std::string& s) {
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') return std::nullopt;
  const std::string body = s.substr(1, s.size() - 2);
  if (body.find("...") != std::string::npos) return std::nullopt;
  const auto others = body.rfind("others ");
  if (others == std::string::npos) return std::nullopt;
  ArrayValue a;
  auto fallback = parse_big_int(body.substr(others + 7));
  if (!fallback) return std::nullopt;
  a.fallback = *fallback;
  std::string cells = body.substr(0, others);
  if (!cells.empty()) {
    if (cells.size() < 2 || cells.substr(cells.size() - 2) != "; ") return std::nullopt;
    cells.resize(cells.size() - 2);
    std::size_t pos = 0;
    while (pos <= cells.size()) {
      auto end = cells.find(", ", pos);
      if (end == std::string::npos) end = cells.size();
      const std::string cell = cells.substr(pos, end - pos);
      const auto colon = cell.find(": ");
      if (colon == std::string::npos) return std::nullopt;
      auto i = parse_big_int(cell.substr(0, colon));
      auto v = parse_big_int(cell.substr(colon + 2));
      if (!i || !v) return std::nullopt;
      a.set(*i, *v);
      pos = end + 2;
    }
  }
  return a;
}

}  // namespace detail

inline void check_counterexample(const Cfa& cfa, const VerificationResult& r) {
  REQUIRE(r.counterexample);
  const Counterexample& cex = *r.counterexample;
  const ExprManager& em = cfa.exprs();
  const auto& steps = cex.steps;
  REQUIRE_FALSE(steps.empty());
  REQUIRE(cfa.error_location());
  CHECK(steps.front().from == cfa.name(cfa.initial_location()));
  CHECK(steps.back().to == cfa.name(*cfa.error_location()));

  // The variables are the CFA's, in its order.
  REQUIRE(cex.variables.size() == em.num_vars());
  for (const auto& v : em.variables()) CHECK(cex.variables[v.id] == v.name);
  REQUIRE(cex.initial.size() == em.num_vars());

  // Each step is an edge of the CFA.
  std::map<std::pair<std::string, std::string>, std::vector<CfaEdge>> edges;
  for (const auto& e : cfa.edges())
    edges[{cfa.name(cfa.source(e)), cfa.name(cfa.target(e))}].push_back(e);
  std::vector<Operation> ops;
  ops.reserve(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto s = steps[i];
    if (i > 0) REQUIRE_MESSAGE(s.from == steps[i - 1].to, "step " << i + 1 << " is not chained");
    const Operation* op = nullptr;
    if (auto it = edges.find({s.from, s.to}); it != edges.end())
      for (const auto& e : it->second) {
        const std::string* f = cfa.nondet_function(e);
        if (to_string(cfa.operation(e), em) == s.operation &&
            (f != nullptr ? *f : std::string()) == s.nondet) {
          op = &cfa.operation(e);
          break;
        }
      }
    REQUIRE_MESSAGE(op != nullptr, "step " << i + 1 << " (" << s.from << " -> " << s.to << ": "
                                           << s.operation << ") is not an edge of the CFA");
    ops.push_back(*op);
  }

  // The inputs the counterexample states: initial values, havocked values, arrays.
  PathInputs in;
  in.initial = cex.initial;
  in.havoc.assign(steps.size(), 0);
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (const auto* h = std::get_if<Havoc>(&ops[i]); h != nullptr && !cex.is_array(h->var)) {
      const auto s = steps[i];
      bool found = false;
      for (const auto& [x, v] : s.changes)
        if (x == h->var) in.havoc[i] = v, found = true;
      CHECK_MESSAGE(found, "step " << i + 1 << " havocs " << em.variable(h->var).name
                                   << " but records no value for it");
    }
  for (const auto& text : cex.array_inputs) {
    const auto brace = text.find(" {");
    REQUIRE_MESSAGE(brace != std::string::npos, "array input without a value: " << text);
    auto value = detail::parse_array_text(text.substr(brace + 1));
    REQUIRE_MESSAGE(value, "array input that cannot be read back exactly: " << text);
    const std::string head = text.substr(0, brace);
    if (const auto k = head.find(" initially"); k != std::string::npos && k + 10 == head.size()) {
      const Variable* v = em.find(head.substr(0, k));
      REQUIRE_MESSAGE(v != nullptr, "array input of an unknown variable: " << text);
      in.arrays.initial[v->id] = *value;
    } else {
      const auto at = head.rfind(" at step ");
      REQUIRE_MESSAGE(at != std::string::npos, "array input of unknown form: " << text);
      const auto step = parse_big_int(head.substr(at + 9));
      REQUIRE(step);
      in.arrays.havoc[static_cast<std::size_t>(*step) - 1] = *value;
    }
  }

  // The path replays, and writes what the counterexample says it writes.
  const ReplayResult replayed = replay(em, ops, in, ReplayRecord::Changes);
  REQUIRE_MESSAGE(replayed.ok, "the counterexample does not replay: step "
                                   << replayed.failed_step + 1 << ": " << replayed.reason);
  std::vector<std::pair<std::size_t, CounterexampleChange>> reported;
  for (std::size_t i = 0; i < steps.size(); ++i)
    for (const auto& c : steps[i].changes) reported.emplace_back(i, c);
  REQUIRE(replayed.changes.size() == reported.size());
  for (std::size_t k = 0; k < reported.size(); ++k) {
    const auto& got = replayed.changes[k];
    const auto& [step, change] = reported[k];
    CHECK_MESSAGE((got.step == step && got.var == change.first && got.value == change.second),
                  "change " << k << " at step " << step + 1 << ": reported "
                            << em.variable(change.first).name << " = " << change.second
                            << ", replayed " << em.variable(got.var).name << " = " << got.value
                            << " at step " << got.step + 1);
  }
}

}  // namespace precis::testing
