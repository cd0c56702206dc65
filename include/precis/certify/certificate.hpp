#pragma once
// SAFE certificates: an invariant per CFA location, as formulas over the
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
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct Certificate {
  // point[l]: the certificate has an invariant at l (every location, unless the
  // analysis abstracts only at some).
  std::vector<bool> point;
  // disjuncts[l]: the invariant at a point l is their disjunction (none: false).
  std::vector<std::vector<Term>> disjuncts;
  // Optional hints that only make the check cheaper (empty: none). successors[l][i][k]:
  // the disjuncts at the target of l's k-th out-edge (Cfa::out_edges order) that hold
  // every successor of disjunct i at l; nullopt where not known. Read off the ARG's
  // child and covering edges. The checker proves each hinted step on a query over a few
  // disjuncts and falls back to the whole invariant when a hint is missing or does not
  // hold, so hints never decide validity.
  using Successors = std::optional<std::vector<std::uint32_t>>;
  std::vector<std::vector<std::vector<Successors>>> successors;

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

// C'(l) = C(l) and inv(l) at every point: each disjunct conjoined with inv(l). The
// certificate of a run on a CFA strengthened by a checked invariant `inv`, restated for
// the original CFA (cfa/strengthen.hpp gives the argument); successor hints stay valid.
inline void conjoin_invariant(Certificate& c, std::span<const Term> inv, ExprManager& em) {
  for (std::size_t l = 0; l < c.disjuncts.size() && l < inv.size(); ++l) {
    if (inv[l] == em.true_()) continue;
    for (Term& d : c.disjuncts[l]) d = em.and_(d, inv[l]);
  }
}

namespace detail {

// What an ARG node stands for in the certificate, by node id: its disjunct's index at
// its location, kFalse for a node whose formula is false, kNone for a node that is not
// an uncovered live node at a point.
inline constexpr std::int64_t kNone = -2;
inline constexpr std::int64_t kFalse = -1;

// Certificate::successors from the ARG (every location a point): for each expanded
// uncovered node and each out-edge of its location, the disjuncts of its children along
// that edge, a covered child standing for its coverer; an edge without a child had an
// empty successor. One pass over the nodes, their children and the children's parents;
// `index` answers "which disjunct is this node" without touching the terms.
template <class Node>
void add_successor_hints(const Cfa& cfa, const std::vector<const Node*>& nodes,
                         const std::vector<std::int64_t>& index, Certificate& c,
                         const Deadline* deadline = nullptr) {
  std::size_t polled = 0;
  const std::size_t n = cfa.num_locations();
  c.successors.assign(n, {});
  for (Loc l = 0; l < n; ++l) {
    std::size_t degree = 0;
    for ([[maybe_unused]] auto e : cfa.out_edges(l)) ++degree;
    c.successors[l].assign(c.disjuncts[l].size(), std::vector<Certificate::Successors>(degree));
  }
  // The disjunct a node stands for: kFalse for none (false), nullopt when unknown (e.g.
  // a coverer that is not uncovered and live).
  const auto disjunct_of = [&](const Node* x) -> std::optional<std::int64_t> {
    for (std::size_t hops = 0; x->covered_by != nullptr && hops < 64; ++hops) x = x->covered_by;
    if (x->removed || x->id >= index.size() || index[x->id] == kNone) return std::nullopt;
    return index[x->id];
  };
  for (const Node* node : nodes) {
    if (deadline && (++polled & 4095U) == 0) deadline->check();
    if (index[node->id] < 0 || !node->expanded) continue;
    const auto i = static_cast<std::size_t>(index[node->id]);
    std::size_t k = 0;
    for (auto e : cfa.out_edges(node->loc)) {
      std::optional<std::vector<std::uint32_t>> to{std::in_place};
      for (const Node* ch : node->children)
        for (const auto& pe : ch->parents) {
          if (pe.node != node || pe.edge != e || !to) continue;
          const auto j = disjunct_of(ch);
          if (!j)
            to.reset();
          else if (*j >= 0)
            to->push_back(static_cast<std::uint32_t>(*j));
        }
      auto& slot = c.successors[node->loc][i][k++];
      if (!to) continue;
      if (slot)  // several nodes with this formula: any of them would do, keep both
        to->insert(to->end(), slot->begin(), slot->end());
      std::sort(to->begin(), to->end());
      to->erase(std::unique(to->begin(), to->end()), to->end());
      slot = std::move(to);
    }
  }
}

}  // namespace detail

// The certificate of a complete ARG (one pass over its live nodes; linear in the ARG).
// `points`: the analysis's certificate points, or nullptr for every location. The
// disjuncts at a location are ordered by term creation (Term's order), sorted on the
// terms' ids read once each, not by comparing terms (which reads both nodes every time:
// a million disjuncts made that the larger part of the certificate's cost).
template <class ArgT>
requires HasFormula<typename ArgT::Node::element_type> Certificate
certificate_from_arg(const Cfa& cfa, const ArgT& arg, const std::vector<bool>* points = nullptr,
                     const Deadline* deadline = nullptr) {
  // Building reads every live node (seconds for 10^6 of them): it polls the deadline
  // and throws limit_reached when the run's time is up.
  std::size_t polled = 0;
  const auto poll = [&] {
    if (deadline && (++polled & 4095U) == 0) deadline->check();
  };
  ExprManager& em = *cfa.expr_manager();
  Certificate c;
  const std::size_t n = cfa.num_locations();
  c.point.assign(n, true);
  if (points)
    for (std::size_t l = 0; l < n; ++l) c.point[l] = l < points->size() && (*points)[l];
  c.disjuncts.assign(n, {});
  using Node = typename ArgT::Node;
  struct Entry {
    std::uint32_t term;  // the formula's id (creation order)
    Term formula;
    const Node* node;
  };
  // The formula of every uncovered live node at a point, by location.
  std::vector<std::vector<Entry>> at(n);
  std::vector<const Node*> nodes;
  std::uint32_t max_id = 0;
  const Term false_ = em.false_();
  arg.for_each_live([&](const Node* node) {
    poll();
    max_id = std::max(max_id, node->id);
    if (node->covered_by != nullptr || !c.point.at(node->loc)) return;
    const Term f = to_formula(node->element, em);
    at[node->loc].push_back({f.id(), f, node});
    nodes.push_back(node);
  });
  std::vector<std::int64_t> index(static_cast<std::size_t>(max_id) + 1, detail::kNone);
  // Equal states at one location (e.g. from different paths) are one disjunct.
  for (Loc l = 0; l < n; ++l) {
    auto& es = at[l];
    std::sort(es.begin(), es.end(), [](const Entry& a, const Entry& b) { return a.term < b.term; });
    auto& d = c.disjuncts[l];
    for (std::size_t i = 0; i < es.size(); ++i) {
      if (es[i].formula == false_) {
        index[es[i].node->id] = detail::kFalse;
        continue;
      }
      if (d.empty() || d.back() != es[i].formula) d.push_back(es[i].formula);
      index[es[i].node->id] = static_cast<std::int64_t>(d.size()) - 1;
    }
    es.clear();
    es.shrink_to_fit();
  }
  if (deadline) deadline->check();
  if (points == nullptr) detail::add_successor_hints(cfa, nodes, index, c, deadline);
  return c;
}

// The certificate of an analysis's final ARG: its points when it has them.
template <class Analysis, class ArgT>
Certificate certificate_of(const Cfa& cfa, const Analysis& analysis, const ArgT& arg,
                           const Deadline* deadline = nullptr) {
  if constexpr (HasCertificatePoints<Analysis>) {
    const auto pts = analysis.certificate_points();
    if constexpr (std::is_same_v<std::decay_t<decltype(pts)>, std::vector<bool>>)
      return certificate_from_arg(cfa, arg, &pts, deadline);
    else
      return certificate_from_arg(cfa, arg, pts ? &*pts : nullptr, deadline);
  } else {
    return certificate_from_arg(cfa, arg, nullptr, deadline);
  }
}

}  // namespace precis
