#pragma once
// Synergy (synergy paper, Alg. 2 and Alg. 3): fast (Cartesian) predicate
// abstraction by default, precise (Boolean) abstraction on the predicate clusters that
// refinement puts on the edges of spurious counterexamples.
//
// Lazy-abstraction CEGAR already is Alg. 2's loop with a localized abstraction (one
// abstract post per CFA edge, refined where the counterexample ran), so synergy is CEGAR
// over two parts, not a copy of it:
//   SynergyAnalysis  (domains/predicate/synergy_analysis.hpp): the per-edge posts,
//                    Cartesian met with the precise post over each cluster of the edge;
//   SynergyRefiner   (refine/synergy_refiner.hpp): NewST (Definition 6, unsat-core
//                    clusters) and SP / NewSP (interpolants, clusters along the path),
//                    with the thresholds of section 4.2.3 and Alg. 3.
// This header wires them: the refiner reads CEGAR's current precision, and shares the
// analysis's abstractor, edge numbering and learned threshold.
//
//   precis::Synergy s(cfa);                  // NewST + NewSP, paper thresholds
//   precis::VerificationResult r = s.run();
//   s.precision()->cluster_stats();          // clusters per edge
//
// A user with their own inner refiner (e.g. a SelectingRefiner) builds
// CEGAR<SynergyAnalysis, SynergyRefiner<Inner>> directly and calls connect_precision,
// as examples/verify/main.cpp does.

#include <memory>
#include <utility>

#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/synergy_refiner.hpp"

namespace precis {

struct SynergyOptions {
  SynergyRefinerOptions refiner{};          // NewST / NewSP, N_sigma_ST / N_sigma_SP
  PredicateOptions predicate{};             // the abstractor; boolean_budget_ms is Alg. 3's N_TO
  PredicateRefinerOptions interpolation{};  // SpuriousPath's predicate refiner
  CegarOptions cegar{};
};

class Synergy {
 public:
  using cegar_type = CEGAR<SynergyAnalysis, SynergyRefiner<>>;

  explicit Synergy(const Cfa& cfa, SynergyOptions opts = {}) {
    SynergyAnalysis analysis(cfa, std::move(opts.predicate));
    SynergyRefiner<> refiner(analysis, PredicateRefiner(cfa, std::move(opts.interpolation)),
                             opts.refiner);
    cegar_ = std::make_unique<cegar_type>(cfa, std::move(opts.cegar), std::move(analysis),
                                          std::move(refiner));
    connect_precision(cegar_->refiner(), cegar_->current_precision());
  }

  VerificationResult run() { return cegar_->run(); }
  VerificationResult run(const Limits& limits) { return cegar_->run(limits); }
  // The precision at the end of the run: predicates per location, clusters per edge.
  [[nodiscard]] const std::shared_ptr<const SynergyPrecision>& precision() const {
    return cegar_->current_precision();
  }
  [[nodiscard]] cegar_type& cegar() noexcept { return *cegar_; }

 private:
  std::unique_ptr<cegar_type> cegar_;  // the refiner holds a reference into it: not moved
};

}  // namespace precis
