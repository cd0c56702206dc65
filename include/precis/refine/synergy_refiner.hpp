#pragma once
// The synergy refinement (synergy paper, Alg. 2, localized, with the thresholds of
// section 4.2.3 and Alg. 3) for SynergyAnalysis
// (domains/predicate/synergy_analysis.hpp). For an abstract error path:
//
//  ST    SpuriousTransition (Alg. 2, lines 9-14): Definition 6 over every completion of
//        the path's abstract states at once (check_abstract_path,
//        refine/spurious_transition.hpp), with the current precision's predicates at
//        each position. Unsatisfiable: every Boolean-program path along these edges has
//        a spurious transition, and the unsat core blames transitions with clusters
//        sigma_ST(t). NewST adds each cluster to its own edge only (localized): the post
//        along that edge becomes Cartesian meet the precise abstraction over it.
//        Satisfiable (or unknown): no spurious transition, go to SP.
//  SP    SpuriousPath (lines 16-23): the inner predicate refiner (PredicateRefiner, or a
//        SelectingRefiner of one) checks the path, replays a feasible one (UNSAFE), and
//        otherwise gives the interpolants' predicates per position (the new
//        predicates Pi(T)). NewSP also gives transition i the cluster sigma_SP(t_i): the
//        predicates of the interpolants at its source and its target (old and new).
//
// Configurations (the paper's WP, NewST, NewSP, NewST+NewSP), all over the one SynergyAnalysis:
//   new_st = new_sp = false: Cartesian only (the paper's WP; equal to PredCart),
//   new_st: NewST, new_sp: NewSP, both: NewST+NewSP. (Boolean only is PredBool.)
//
// Thresholds (section 4.2.3, Alg. 3): a cluster of more than threshold_st (ST) or
// threshold_sp (SP) predicates is not added, and neither is one at or over the
// threshold the analysis learned from its time budget (SynergyThreshold): that edge
// keeps the fast abstraction (Alg. 3, lines 20 and 35). 0 switches a static threshold
// off. Clusters of one predicate are never added: the Cartesian post over a single
// predicate is already the precise one.
//
// When ST's clusters change no node of the path (they were all present), CEGAR asks
// refine_further, which runs SP; after SP it forwards to the inner refiner's
// refine_further (the next sliced prefix), and then gives up (CEGAR: no progress).
//
// The refiner reads the current precision: connect it with
//   precis::connect_precision(cegar.refiner(), cegar.current_precision());
// Without it, ST is skipped (every refinement is SP).

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/spurious_transition.hpp"

namespace precis {

struct SynergyRefinerOptions {
  bool new_st = true;             // clusters for spurious transitions (NewST)
  bool new_sp = true;             // clusters along spurious paths (NewSP)
  std::size_t threshold_st = 13;  // N_sigma_ST of section 4.2.3; 0: none
  std::size_t threshold_sp = 17;  // N_sigma_SP; 0: none
};

template <class Inner = PredicateRefiner>
requires Refiner<Inner> && std::same_as<typename Inner::increment_type, PredicateSet>
class SynergyRefiner {
 public:
  using increment_type = SynergyIncrement;
  using refinement_type = Refinement<SynergyIncrement>;

  SynergyRefiner(const SynergyAnalysis& analysis, Inner inner, SynergyRefinerOptions opts = {})
      : abs_(analysis.shared_abstractor()),
        edges_(analysis.shared_edges()),
        threshold_(analysis.threshold()),
        opts_(opts),
        inner_(std::move(inner)) {}
  // The default inner refiner: PredicateRefiner with its default options.
  SynergyRefiner(const Cfa& cfa, const SynergyAnalysis& analysis,
                 SynergyRefinerOptions opts = {}) requires std::same_as<Inner, PredicateRefiner>
      : SynergyRefiner(analysis, PredicateRefiner(cfa), opts) {}

  [[nodiscard]] Inner& inner() noexcept { return inner_; }
  [[nodiscard]] const SynergyRefinerOptions& options() const noexcept { return opts_; }
  // The precision CEGAR refines (a reference to CEGAR's pointer, which it replaces).
  void set_precision(const std::shared_ptr<const SynergyPrecision>& current) {
    current_ = &current;
  }

  refinement_type refine(const ErrorPath& path, Statistics& stats) {
    if (opts_.new_st && current_ && *current_) {
      refinement_type st = spurious_transitions(path, stats);
      if (!st.increments.empty()) {
        after_st_ = true;
        return st;
      }
    }
    after_st_ = false;
    return spurious_path(inner_.refine(path, stats), path, stats);
  }

  // See the header: ST changed nothing, so SP; after SP, the inner refiner's next try.
  refinement_type refine_further(const ErrorPath& path, Statistics& stats) {
    if (after_st_) {
      after_st_ = false;
      stats.extra["synergy ST without progress"] += 1;
      return spurious_path(inner_.refine(path, stats), path, stats);
    }
    if constexpr (requires { inner_.refine_further(path, stats); })
      return spurious_path(inner_.refine_further(path, stats), path, stats);
    return {};
  }

 private:
  [[nodiscard]] bool allowed(std::size_t size, std::size_t threshold) const {
    return size >= 2 && (threshold == 0 || size <= threshold) && threshold_->allows(size);
  }

  refinement_type spurious_transitions(const ErrorPath& path, Statistics& stats) {
    auto& x = stats.extra;
    refinement_type out;
    const SynergyPrecision& pi = **current_;
    std::vector<const Operation*> ops;
    ops.reserve(path.size());
    for (const EdgeRef& e : path.steps) ops.push_back(e.op);
    const AbstractPathCheck c = check_abstract_path(
        *abs_, ops,
        [&](std::size_t k) -> const PredicateSet& { return pi.predicates(path.location(k)); });
    x["synergy ST checks"] += 1;
    if (c.result == SatResult::Unknown) x["synergy ST checks unknown"] += 1;
    if (c.result != SatResult::Unsat) return out;
    x["synergy spurious transitions"] += static_cast<double>(c.blamed());
    for (std::size_t i = 0; i < c.clusters.size(); ++i) {
      const PredicateSet& cl = c.clusters[i];
      if (cl.empty()) continue;
      if (!allowed(cl.size(), opts_.threshold_st)) {
        x["synergy ST clusters not added"] += 1;
        continue;  // Alg. 3, line 20: this edge keeps the fast abstraction
      }
      SynergyIncrement inc;
      inc.clusters.emplace_back(edges_->key(path.steps[i]), cl);
      out.increments.emplace_back(i, std::move(inc));
    }
    if (out.increments.empty()) return out;
    out.kind = RefinementKind::Spurious;
    x["synergy ST refinements"] += 1;
    return out;
  }

  refinement_type spurious_path(Refinement<PredicateSet> r, const ErrorPath& path,
                                Statistics& stats) {
    refinement_type out;
    out.kind = r.kind;
    out.counterexample = std::move(r.counterexample);
    out.reason = std::move(r.reason);
    out.restart = r.restart;
    if (r.kind != RefinementKind::Spurious) return out;
    auto& x = stats.extra;
    x["synergy SP refinements"] += 1;
    // The interpolants' predicates per path position (the location before step i).
    std::vector<PredicateSet> at(path.size() + 1);
    for (auto& [i, ps] : r.increments) {
      if (i < at.size()) at[i] = at[i].join(ps);
      out.increments.emplace_back(i, SynergyIncrement{std::move(ps), {}});
    }
    if (!opts_.new_sp) return out;
    for (std::size_t i = 0; i < path.size(); ++i) {
      PredicateSet c = at[i].join(at[i + 1]);
      if (c.size() < 2) continue;
      if (!allowed(c.size(), opts_.threshold_sp)) {
        x["synergy SP clusters not added"] += 1;
        continue;  // Alg. 3, line 35
      }
      SynergyIncrement inc;
      inc.clusters.emplace_back(edges_->key(path.steps[i]), std::move(c));
      out.increments.emplace_back(i, std::move(inc));
      x["synergy SP clusters"] += 1;
    }
    return out;
  }

  std::shared_ptr<PredicateAbstractor> abs_;
  std::shared_ptr<const EdgeIndex> edges_;
  std::shared_ptr<SynergyThreshold> threshold_;
  SynergyRefinerOptions opts_;
  Inner inner_;
  const std::shared_ptr<const SynergyPrecision>* current_ = nullptr;
  bool after_st_ = false;
};

static_assert(Refiner<SynergyRefiner<>>);

// CEGAR's precision for the ST check, and for a selecting inner refiner the oracle of
// which predicates a location already has.
template <class Inner>
void connect_precision(SynergyRefiner<Inner>& r,
                       const std::shared_ptr<const SynergyPrecision>& current) {
  r.set_precision(current);
  if constexpr (requires { r.inner().set_precision_oracle({}); }) {
    r.inner().set_precision_oracle([&current](Loc l, const PredicateSet& inc) {
      return current != nullptr && inc.leq(current->predicates(l));
    });
  }
}

}  // namespace precis
