#pragma once
// The synergy refinement (synergy paper, Alg. 2, localized, with the thresholds of
// section 4.2.3; issue 12, items 2-3): for an abstract error path of SynergyAnalysis
// (domains/predicate/synergy_analysis.hpp)
//
//  NewST  first every abstract transition of the path is checked against its concrete
//         edge (Definition 6, refine/spurious_transition.hpp). The first spurious one
//         gives a cluster (the predicates of the unsat core) for that edge only: the
//         precise abstraction of the edge over the cluster excludes the transition.
//  SP     if no transition is spurious, the path itself is (or is a counterexample):
//         the predicate refiner (refine/predicate_refiner.hpp) checks it, replays a
//         feasible one, and otherwise gives new predicates from interpolants (the fast,
//         WP/Cartesian refinement of the paper's baseline).
//  NewSP  with the SP branch, every transition of the path also gets the cluster of
//         predicates relevant to it: the new predicates at its source and target.
//
// A cluster larger than the branch's threshold (N_sigma_ST = 13, N_sigma_SP = 17 by
// default, the paper's) is not added: that edge stays Cartesian (Alg. 3's fallback; the
// time-budget variant is not built). Clusters of one predicate are not added either (a
// Cartesian post over one predicate is already precise).
//
// The states along the path come from CEGAR (see_states, algorithms/cegar.hpp) before
// refine; without them NewST is skipped.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/refine/error_path.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/refiner.hpp"
#include "precis/refine/spurious_transition.hpp"

namespace precis {

struct SynergyRefinerOptions {
  bool new_st = true;             // clusters for spurious transitions
  bool new_sp = true;             // clusters along spurious paths
  std::size_t threshold_st = 13;  // 0: no threshold
  std::size_t threshold_sp = 17;
  PredicateRefinerOptions predicate{};
};

class SynergyRefiner {
 public:
  using increment_type = SynergyIncrement;

  SynergyRefiner(const Cfa& cfa, const SynergyAnalysis& analysis, SynergyRefinerOptions opts = {})
      : cfa_(&cfa),
        abs_(analysis.shared_abstractor()),
        edges_(&analysis.edges()),
        opts_(std::move(opts)),
        inner_(cfa, opts_.predicate) {}

  void see_states(std::span<const PredicateState* const> states) {
    states_.assign(states.begin(), states.end());
  }

  Refinement<SynergyIncrement> refine(const ErrorPath& path, Statistics& stats) {
    auto& x = stats.extra;
    Refinement<SynergyIncrement> out;
    if (opts_.new_st && states_.size() == path.size() + 1) {
      for (std::size_t i = 0; i < path.size(); ++i) {
        bool unknown = false;
        auto cluster = spurious_transition(*abs_, *states_[i], path.steps[i].operation(),
                                           *states_[i + 1], &unknown);
        if (!cluster) continue;
        x["synergy spurious transitions"] += 1;
        if (cluster->size() < 2 || (opts_.threshold_st && cluster->size() > opts_.threshold_st)) {
          x["synergy clusters over threshold"] += cluster->size() >= 2 ? 1 : 0;
          continue;  // no precise abstraction for it: the SP branch decides
        }
        out.kind = RefinementKind::Spurious;
        SynergyIncrement inc;
        inc.clusters.emplace_back(edges_->key(path.steps[i]), std::move(*cluster));
        out.increments.emplace_back(i, std::move(inc));
        states_.clear();
        return out;
      }
    }
    states_.clear();
    x["synergy spurious paths"] += 1;
    Refinement<PredicateSet> r = inner_.refine(path, stats);
    out.kind = r.kind;
    out.counterexample = std::move(r.counterexample);
    out.reason = std::move(r.reason);
    out.restart = r.restart;
    if (r.kind != RefinementKind::Spurious) return out;
    // The new predicates per path position (the location before step i).
    std::vector<PredicateSet> at(path.size() + 1);
    for (const auto& [i, ps] : r.increments) {
      at[i] = at[i].join(ps);
      out.increments.emplace_back(i, SynergyIncrement{ps, {}});
    }
    if (opts_.new_sp) {
      for (std::size_t i = 0; i < path.size(); ++i) {
        PredicateSet c = at[i].join(at[i + 1]);
        if (c.size() < 2 || (opts_.threshold_sp && c.size() > opts_.threshold_sp)) continue;
        SynergyIncrement inc;
        inc.clusters.emplace_back(edges_->key(path.steps[i]), std::move(c));
        out.increments.emplace_back(i, std::move(inc));
        x["synergy path clusters"] += 1;
      }
    }
    return out;
  }

 private:
  const Cfa* cfa_;
  std::shared_ptr<PredicateAbstractor> abs_;
  const EdgeIndex* edges_;
  SynergyRefinerOptions opts_;
  PredicateRefiner inner_;
  std::vector<const PredicateState*> states_;
};

static_assert(Refiner<SynergyRefiner>);

}  // namespace precis
