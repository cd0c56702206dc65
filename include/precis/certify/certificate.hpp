#pragma once
// SAFE certificates (issue 13): an invariant per CFA location, as formulas over the
// program variables, read off the final ARG of an analysis.
//
// The invariant at a location is the disjunction of the formulas of the ARG nodes there
// that are not covered (a covered node's states are contained in its coverer's). An
// element becomes a formula through `to_formula(element, ExprManager&)`, found by
// argument-dependent lookup next to the element type: an explicit state is the
// conjunction of x = v, a predicate state its DNF over the predicates, a product the
// conjunction of its parts, a box its bounds. An analysis whose nodes hold formulas
// over the program variables only at some locations (ABE: at abstraction points) says
// so with `certificate_points()`; the certificate then has invariants only there, and
// the checker proves consecution block by block between them.
//
// Nothing here decides anything: certify/certificate_checker.hpp proves (or refutes)
// the certificate on its own solver instance, knowing nothing of the analysis. A wrong
// formula here can only make that check fail (UNKNOWN), never make a verdict wrong.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// An element that can be written as a formula over the program variables.
template <class E>
concept HasFormula = requires(const E& e, ExprManager& em) {
  { to_formula(e, em) } -> std::convertible_to<Term>;
};

struct Certificate {
  // point[l]: the certificate has an invariant at l (every location, unless the
  // analysis abstracts only at some).
  std::vector<bool> point;
  // disjuncts[l]: the invariant at a point l is their disjunction (none: false).
  std::vector<std::vector<Term>> disjuncts;

  [[nodiscard]] std::size_t num_locations() const { return point.size(); }
  [[nodiscard]] bool has(Loc l) const { return point.at(l); }
  // The invariant at a point (false where the analysis reached nothing).
  [[nodiscard]] Term invariant(Loc l, ExprManager& em) const {
    return em.disj(std::span<const Term>(disjuncts.at(l)));
  }
  // Points whose invariant is not false.
  [[nodiscard]] std::size_t reached_points() const {
    std::size_t n = 0;
    for (std::size_t l = 0; l < point.size(); ++l) n += point[l] && !disjuncts[l].empty() ? 1 : 0;
    return n;
  }
  [[nodiscard]] std::size_t total_disjuncts() const {
    std::size_t n = 0;
    for (const auto& d : disjuncts) n += d.size();
    return n;
  }
};

// The certificate of a complete ARG (one pass over its live nodes; linear in the ARG).
// `points`: the analysis's certificate points, or nullptr for every location.
template <class ArgT>
requires HasFormula<typename ArgT::Node::element_type> Certificate
certificate_from_arg(const Cfa& cfa, const ArgT& arg, const std::vector<bool>* points = nullptr) {
  ExprManager& em = *cfa.expr_manager();
  Certificate c;
  const std::size_t n = cfa.num_locations();
  c.point.assign(n, true);
  if (points)
    for (std::size_t l = 0; l < n; ++l) c.point[l] = l < points->size() && (*points)[l];
  c.disjuncts.assign(n, {});
  arg.for_each_live([&](const auto* node) {
    if (node->covered_by != nullptr || !c.point.at(node->loc)) return;
    const Term f = to_formula(node->element, em);
    if (f == em.false_()) return;
    c.disjuncts[node->loc].push_back(f);
  });
  // Equal states at one location (e.g. from different paths) are one disjunct.
  for (auto& d : c.disjuncts) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  return c;
}

// The certificate of an analysis's final ARG: its points when it has them.
template <class Analysis, class ArgT>
Certificate certificate_of(const Cfa& cfa, const Analysis& analysis, const ArgT& arg) {
  if constexpr (requires { analysis.certificate_points(); }) {
    const auto pts = analysis.certificate_points();
    if constexpr (std::is_same_v<std::decay_t<decltype(pts)>, std::vector<bool>>)
      return certificate_from_arg(cfa, arg, &pts);
    else
      return certificate_from_arg(cfa, arg, pts ? &*pts : nullptr);
  } else {
    return certificate_from_arg(cfa, arg);
  }
}

}  // namespace precis
