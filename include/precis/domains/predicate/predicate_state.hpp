#pragma once
// Abstract states of predicate abstraction (product-abstraction paper, section 2.2.1;
// synergy paper, sections 2.2-2.3), one representation for both modes:
//
//   a Literal is a predicate or its negation;
//   a Cube is a conjunction of literals, sorted, at most one literal per predicate;
//   a PredicateState is a disjunction of cubes (a DNF over the predicates).
//
// Bottom is the empty disjunction, top the single empty cube. A Cartesian state is
// always one cube (each predicate, its negation, or neither). A Boolean state is the
// set of cubes that all-solutions enumeration found, so the DNF is exactly what the
// abstraction produces: no BDD package, no formula rebuilding, and a cheap syntactic
// covering check (every cube of a contains a cube of b) before any solver call. The
// literals refer to predicate Terms of the program's ExprManager, so states never
// build terms and stay valid however often they are copied.

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct Literal {
  Term pred;
  bool positive = true;

  [[nodiscard]] Literal negated() const { return Literal{pred, !positive}; }
  friend bool operator==(const Literal&, const Literal&) = default;
  friend bool operator<(const Literal& a, const Literal& b) {
    if (a.pred != b.pred) return a.pred < b.pred;
    return a.positive < b.positive;
  }
};

// A std::vector, not a boost small_vector: sorting and moving small_vectors of cubes
// makes GCC 12 report false -Warray-bounds / -Wstringop-overread errors at -O2 in every
// program that includes this header (the conventional Release build failed on them).
using Cube = std::vector<Literal>;

// Sorted, duplicate-free; returns false if the cube contains p and not p.
inline bool normalize_cube(Cube& c) {
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].pred == c[i - 1].pred) return false;
  return true;
}

// a contains every literal of b (so a implies b).
inline bool cube_includes(const Cube& a, const Cube& b) {
  return std::includes(a.begin(), a.end(), b.begin(), b.end());
}

class PredicateState {
 public:
  PredicateState() = default;  // bottom
  static PredicateState top() {
    PredicateState s;
    s.cubes_.emplace_back();
    return s;
  }
  static PredicateState bottom() { return {}; }
  static PredicateState of_cube(Cube c) {
    PredicateState s;
    if (normalize_cube(c)) s.cubes_.push_back(std::move(c));
    return s;
  }
  // A DNF; contradictory cubes are dropped, subsumed cubes removed, and cubes that
  // differ in the polarity of one literal merged (x.p \/ x.~p = x).
  static PredicateState of_cubes(std::vector<Cube> cs) {
    PredicateState s;
    for (Cube& c : cs)
      if (normalize_cube(c)) s.cubes_.push_back(std::move(c));
    s.simplify();
    return s;
  }

  [[nodiscard]] bool is_bottom() const noexcept { return cubes_.empty(); }
  [[nodiscard]] bool is_top() const noexcept { return cubes_.size() == 1 && cubes_[0].empty(); }
  [[nodiscard]] bool is_cube() const noexcept { return cubes_.size() == 1; }
  [[nodiscard]] const std::vector<Cube>& cubes() const noexcept { return cubes_; }
  // The single cube of a non-bottom Cartesian state.
  [[nodiscard]] const Cube& cube() const { return cubes_.front(); }

  [[nodiscard]] std::size_t hash() const noexcept {
    std::size_t h = cubes_.size();
    for (const Cube& c : cubes_) {
      h = h * 0x9E3779B97F4A7C15ULL + c.size();
      for (const Literal& l : c) h = (h ^ (l.pred.hash() + l.positive)) * 0x100000001B3ULL;
    }
    return h;
  }
  friend bool operator==(const PredicateState&, const PredicateState&) = default;

 private:
  void simplify() {
    bool changed = true;
    while (changed) {
      changed = false;
      std::sort(cubes_.begin(), cubes_.end());
      cubes_.erase(std::unique(cubes_.begin(), cubes_.end()), cubes_.end());
      // absorption: drop a cube that includes another (it implies it)
      for (std::size_t i = 0; i < cubes_.size() && !changed; ++i)
        for (std::size_t j = 0; j < cubes_.size() && !changed; ++j)
          if (i != j && cube_includes(cubes_[i], cubes_[j])) {
            cubes_.erase(cubes_.begin() + static_cast<std::ptrdiff_t>(i));
            changed = true;
          }
      // resolution on one literal: x.p \/ x.~p = x
      for (std::size_t i = 0; i < cubes_.size() && !changed; ++i)
        for (std::size_t j = i + 1; j < cubes_.size() && !changed; ++j) {
          const Cube& a = cubes_[i];
          const Cube& b = cubes_[j];
          if (a.size() != b.size()) continue;
          std::size_t diff = 0, at = 0;
          for (std::size_t k = 0; k < a.size() && diff < 2; ++k) {
            if (a[k] == b[k]) continue;
            if (a[k].pred != b[k].pred)
              diff = 2;
            else
              ++diff, at = k;
          }
          if (diff != 1) continue;
          Cube m = a;
          m.erase(m.begin() + static_cast<std::ptrdiff_t>(at));
          cubes_.erase(cubes_.begin() + static_cast<std::ptrdiff_t>(j));
          cubes_[i] = std::move(m);
          changed = true;
        }
    }
  }

  std::vector<Cube> cubes_;
};

inline std::string to_string(const PredicateState& s, const ExprManager& em) {
  if (s.is_bottom()) return "false";
  std::string out;
  for (std::size_t i = 0; i < s.cubes().size(); ++i) {
    if (i) out += " | ";
    const Cube& c = s.cubes()[i];
    if (c.empty()) out += "true";
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (k) out += " & ";
      // Appended piece by piece: `"!" + std::string(...)` makes GCC 12 report a false
      // -Wrestrict inside std::string at -O2.
      if (!c[k].positive) out += '!';
      out += '(';
      out += to_string(c[k].pred, em);
      out += ')';
    }
  }
  return out;
}

// The state as a formula over the program variables (a certificate disjunct, issue 13):
// its DNF over the predicates themselves (not the solver's SSA copies).
inline Term to_formula(const PredicateState& s, ExprManager& em) {
  std::vector<Term> ds;
  ds.reserve(s.cubes().size());
  for (const Cube& c : s.cubes()) {
    std::vector<Term> ls;
    ls.reserve(c.size());
    for (const Literal& l : c) ls.push_back(l.positive ? l.pred : em.not_(l.pred));
    ds.push_back(em.conj(ls));
  }
  return em.disj(ds);
}

}  // namespace precis
