#pragma once
// The predicate-abstraction CPA (product-abstraction paper, section 2.2.1; synergy
// paper, sections 2.2-2.3) with location-local precisions (LocalPrecision of
// PredicateSet, the granularities of the explicit analysis). The abstraction is done
// in the transfer relation: the post of a state along an edge is abstracted over the
// predicates of the edge's target location, pi.at(target). So the precision
// adjustment is the identity.
//
//   precis::CEGAR<precis::PredBool> cegar{cfa, options};   // or PredCart, or Pred
//
// One PredicateAbstractor (one incremental solver, the post cache, the statistics) per
// analysis object; copies of the analysis share it, and nothing is global.

#include <memory>
#include <string>
#include <utility>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_domain.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"

namespace precis {

template <AbstractionMode Mode>
class PredicateAnalysis {
 public:
  using domain_type = PredicateDomain;
  using element = PredicateState;
  using precision = LocalPrecision<PredicateSet>;
  static constexpr AbstractionMode mode = Mode;

  explicit PredicateAnalysis(const Cfa& cfa, PredicateOptions opts = {})
      : cfa_(&cfa),
        abs_(std::make_shared<PredicateAbstractor>(cfa.expr_manager(), std::move(opts))),
        domain_(Mode, abs_) {}

  [[nodiscard]] const domain_type& domain() const { return domain_; }
  [[nodiscard]] element initial_element() const { return element::top(); }
  // pi_0: no predicates anywhere (CEGAR starts from the empty precision).
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return precision(*cfa_, g, PredicateSet{});
  }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& pi, Sink&& sink) const {
    element s = abs_->post(e, edge.operation(), pi.at(edge.target), Mode);
    if (!s.is_bottom()) sink(std::move(s));
  }

  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& /*pi*/,
                                                    Loc /*loc*/) const {
    return {e, std::nullopt, Action::Continue};
  }

  [[nodiscard]] PredicateAbstractor& abstractor() const { return *abs_; }

  // Adds this analysis's counters to the run statistics (Statistics.extra).
  void report(Statistics& st) const {
    auto& x = st.extra;
    x["pred abstraction"] = Mode == AbstractionMode::Boolean ? 1 : 0;  // 1: Boolean
    report_abstractor(*abs_, x);
  }

 private:
  const Cfa* cfa_;
  std::shared_ptr<PredicateAbstractor> abs_;
  domain_type domain_;
};

static_assert(
    ConfigurableProgramAnalysis<PredicateAnalysis<AbstractionMode::Cartesian>, EdgeRef, Loc>);
static_assert(
    ConfigurableProgramAnalysis<PredicateAnalysis<AbstractionMode::Boolean>, EdgeRef, Loc>);

using PredCart = PredicateAnalysis<AbstractionMode::Cartesian>;
using PredBool = PredicateAnalysis<AbstractionMode::Boolean>;
// The default: Boolean abstraction (with its Cartesian fallback above 16 predicates).
// Refinement splits interpolants into atoms, and a disjunctive interpolant is then
// only kept by the Boolean post; Cartesian needs extra refinements to recover it.
using Pred = PredBool;

}  // namespace precis
