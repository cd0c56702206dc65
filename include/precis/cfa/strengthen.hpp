#pragma once
// A CFA strengthened by an invariant (precis-verify's --invariants): the certified invariant of one
// analysis (a relational abstract interpretation, say) handed to another (a CEGAR
// analysis), so that predicate abstraction need not rediscover `k == i` by unrolling.
//
// strengthen_with_invariant conjoins inv(l) to the condition of every edge leaving a
// loop head l (a head of the weak topological order) whose out-edges are all assumes:
// the branch on the loop condition. Locations and edges keep their numbers, lines and
// annotations, so counterexamples, witnesses and certificates of the strengthened CFA
// speak of the same program points.
//
// Soundness. Let inv be inductive for the original CFA (checked by the certificate
// checker before it is used) and true at the initial location. Every reachable state at
// l satisfies inv(l), so the added conjuncts remove no run: the reachable states of
// both CFAs are the same. Hence
//   - a feasible error path of the strengthened CFA is one of the original (each of its
//     assumes is stronger), and the concrete interpreter replays it as usual;
//   - a certificate C of the strengthened CFA gives C'(l) = C(l) and inv(l) for the
//     original: on an edge from a strengthened head, C(l), inv(l) and op imply C(m) by
//     C's check, and inv(m) by inv's; on any other edge op is unchanged. conjoin_invariant
//     builds C' (each disjunct and inv(l); successor hints stay valid), which is what
//     witnesses report; the checker has proved C and inv, each on its own CFA.

#include <cstddef>
#include <span>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/weak_topological_order.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct StrengthenedCfa {
  Cfa cfa;
  std::size_t locations = 0;  // heads whose out-edges got inv(l)
  std::size_t edges = 0;      // assume edges strengthened
};

// inv[l] for every location (true where nothing is known; false where unreachable).
inline StrengthenedCfa strengthen_with_invariant(const Cfa& cfa, std::span<const Term> inv) {
  ExprManager& em = *cfa.expr_manager();
  const std::size_t n = cfa.num_locations();
  const WeakTopologicalOrder wto(cfa);
  std::vector<bool> strengthen(n, false);
  for (Loc l = 0; l < n; ++l) {
    if (!wto.is_head(l) || l >= inv.size() || inv[l] == em.true_()) continue;
    bool all_assume = true, any = false;
    for (auto e : cfa.out_edges(l)) {
      any = true;
      all_assume = all_assume && std::holds_alternative<Assume>(cfa.operation(e));
    }
    strengthen[l] = any && all_assume;
  }
  StrengthenedCfa out{Cfa(cfa.expr_manager())};
  Cfa& c = out.cfa;
  for (std::size_t i = 1; i < cfa.functions().size(); ++i) c.add_function(cfa.functions()[i]);
  c.set_nondet_functions(cfa.nondet_functions());
  c.set_instances(cfa.instances());
  for (Loc l = 0; l < n; ++l) c.add_location(cfa.location_info(l));  // same numbers
  for (Loc l = 0; l < n; ++l) {
    out.locations += strengthen[l] ? 1 : 0;
    for (auto e : cfa.out_edges(l)) {
      EdgeInfo info = cfa.edge_info(e);
      if (strengthen[l]) {
        info.op = Assume{em.and_(inv[l], std::get<Assume>(info.op).cond)};
        ++out.edges;
      }
      c.add_edge(l, cfa.target(e), std::move(info));
    }
  }
  c.set_initial(cfa.initial_location());
  c.set_error(cfa.error_location());
  c.set_final(cfa.final_location());
  return out;
}

}  // namespace precis
