#pragma once
// Entailment between predicate states (DNFs over predicates) with the predicates as
// propositional variables: what BDDs give CPAchecker's predicate analysis for free,
// decided here on the DNFs precis keeps. A "yes" is a proof of implication
// modulo any theory. A "no" is exact when the cubes of the left side are satisfiable
// and leave free only predicates that are free in the theory too, which holds for the
// exact Boolean abstractions of one location (predicate_abstractor.hpp); elsewhere the
// caller may still ask the solver (PredicateOptions::symbolic_coverage).

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// Every cube of a contains a cube of b.
inline bool cube_wise_implies(const PredicateState& a, const PredicateState& b) {
  for (const Cube& ca : a.cubes()) {
    bool found = false;
    for (const Cube& cb : b.cubes())
      if (cube_includes(ca, cb)) {
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}

// Some cube of a contradicts every cube of b (each has a literal whose negation is in
// the cube of a). The cubes of states made by posts are satisfiable (each is a model of
// the enumeration, a sub-cube of one, or the implied literals of a satisfiable
// formula), so a model of that cube falsifies b: a does not imply b, and the solver is
// not asked. On an unsatisfiable cube the answer is "no" where "yes" was right: less
// covering, never unsound.
inline bool cube_wise_refutes(const PredicateState& a, const PredicateState& b) {
  auto contradicts = [](const Cube& c, const Cube& d) {
    // both sorted by (pred, polarity): one merge pass
    std::size_t i = 0, j = 0;
    while (i < c.size() && j < d.size()) {
      if (c[i].pred == d[j].pred) {
        if (c[i].positive != d[j].positive) return true;
        ++i, ++j;
      } else if (c[i].pred < d[j].pred) {
        ++i;
      } else {
        ++j;
      }
    }
    return false;
  };
  for (const Cube& ca : a.cubes()) {
    bool all = true;
    for (const Cube& cb : b.cubes())
      if (!contradicts(ca, cb)) {
        all = false;
        break;
      }
    if (all) return true;
  }
  return false;
}

// Is the DNF (no cube contradictory) valid? Splits on the most frequent predicate.
inline std::optional<bool> dnf_tautology(std::vector<Cube> d, std::size_t& budget) {
  if (d.empty()) return false;
  for (const Cube& c : d)
    if (c.empty()) return true;
  if (budget == 0) return std::nullopt;
  --budget;
  std::unordered_map<Term, std::size_t, TermHash> count;
  for (const Cube& c : d)
    for (const Literal& l : c) ++count[l.pred];
  Term pick = d.front().front().pred;
  std::size_t best = 0;
  for (const auto& [t, n] : count)
    if (n > best || (n == best && t < pick)) best = n, pick = t;
  for (const bool value : {true, false}) {
    std::vector<Cube> sub;
    for (const Cube& c : d) {
      Cube r;
      bool dead = false;
      for (const Literal& l : c) {
        if (l.pred != pick)
          r.push_back(l);
        else if (l.positive != value)
          dead = true;
      }
      if (!dead) sub.push_back(std::move(r));
    }
    const std::optional<bool> t = dnf_tautology(std::move(sub), budget);
    if (t != true) return t;
  }
  return true;
}

// a => b with the predicates as propositional variables (nullopt: undecided within
// a bound on the case splits). Per cube c of a: b restricted by c (cubes that
// contradict c dropped, literals of c removed) must be a tautology, decided by
// splitting on its most frequent predicate. "Yes" is a proof of a => b. "No" is
// exact where each cube of a leaves free only predicates that the abstraction found
// free (every assignment to them is consistent with the theory), as for the exact
// Boolean abstractions the adjustable-block analysis covers with: that is the BDD
// entailment CPAchecker's predicate analysis covers with. Elsewhere "no" may miss a
// theory implication (less covering, never unsound); see symbolic_coverage.
inline std::optional<bool> propositionally_implies(const PredicateState& a, const PredicateState& b,
                                                   std::size_t budget = 4096) {
  for (const Cube& c : a.cubes()) {
    std::vector<Cube> rest;
    for (const Cube& d : b.cubes()) {
      Cube r;
      bool contradicted = false;
      std::size_t i = 0;
      for (const Literal& l : d) {
        while (i < c.size() && c[i].pred < l.pred) ++i;
        if (i < c.size() && c[i].pred == l.pred) {
          if (c[i].positive != l.positive) {
            contradicted = true;
            break;
          }
          continue;  // implied by c
        }
        r.push_back(l);
      }
      if (contradicted) continue;
      if (r.empty()) {
        rest.clear();
        rest.emplace_back();
        break;
      }
      rest.push_back(std::move(r));
    }
    const std::optional<bool> t = dnf_tautology(std::move(rest), budget);
    if (t != true) return t;
  }
  return true;
}

}  // namespace precis
