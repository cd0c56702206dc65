#pragma once
// DomainAnalysis<D>: any abstract domain with a transfer function post(element, Operation)
// (Box, a congruence domain, the relational domains) as a configurable program analysis,
// so that the CPA algorithm and CEGAR run it alone or as a component of a product:
//
//   precis::CEGAR<precis::DomainAnalysis<D, precis::MergeJoin>> cegar{cfa, options};
//   precis::CEGAR<precis::ProductDomain<precis::Expl, precis::DomainAnalysis<D>>> both{cfa};
//
// The CPA (Beyer, Henzinger, Theoduloz; explicit-value paper, section II) is the domain
// itself with a fixed precision: the transfer is D's post (a bottom successor is none),
// the precision adjustment is the identity, and the precision is UnitPrecision, a single
// value that no refinement changes. The merge operator is the template parameter Merge
// (the analysis' merge_type, which CEGAR and ProductDomain read): merge-sep by default, as
// for every analysis in precis; MergeJoin for a domain whose ascending chains are finite
// (congruences); MergeWiden below for one whose chains are not (intervals, octagons,
// polyhedra), since the CPA algorithm has no widening of its own. With merge-sep a domain
// that keeps constants (x = 0, x = 4, ...) unrolls a loop forever. In a product, the
// components with merge-sep (Expl, Pred) must agree before the others merge theirs.
//
// Refinement: a fixed precision has nothing to refine. The default refiner,
// FixedPrecisionRefiner, answers every error path with Unknown and says why, so that
// CEGAR over a DomainAnalysis alone ends UNKNOWN with that reason when the domain cannot
// exclude the error; in ProductDomain<Expl, DomainAnalysis<D>> (or <Pred, ...>) the
// product refiner asks the other component's refiner first, which refutes spurious paths
// (the variables it then tracks keep the states apart that merging had joined) and
// confirms feasible ones. Any other refiner
// can be passed as CEGAR's second argument: UnitPrecision accepts (and ignores) every
// increment, so a refiner that confirms counterexamples (ExplicitRefiner) gives UNSAFE
// verdicts, and a path it refutes ends the run as "refinement made no progress".
//
// Certificates (certify/): a SAFE ARG's nodes hold D's elements; the certificate reads
// them through to_formula(element, ExprManager&), found by argument-dependent lookup next
// to the element type (in a product: the conjunction of the components' formulas). A
// domain without it runs, but its SAFE verdicts cannot be certified.
//
// The reached set indexes D's elements by hash when D is a HashableDomain (one lookup
// finds an equal element for stop-sep); otherwise stop scans the elements at the
// location, which is correct and linear per query.

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
// For the refiner trait, so that CEGAR<DomainAnalysis<D>> needs this header only.
#include "precis/path/refiner.hpp"

namespace precis {

// What DomainAnalysis needs of a domain is a TransferRelation (core/concepts.hpp).

// The precision of an analysis that has none to refine: one value, at every location
// (it has the interface of LocalPrecision that CEGAR and ProductPrecision use).
struct UnitPrecision {
  [[nodiscard]] UnitPrecision join(const UnitPrecision&) const { return {}; }
  [[nodiscard]] bool leq(const UnitPrecision&) const { return true; }
  [[nodiscard]] const UnitPrecision& at(Loc) const { return *this; }
  // Nothing changes, whatever a refiner proposes (see the top of this file).
  template <class Increment>
  bool add(Loc, const Increment&, const ExprManager&) {
    return false;
  }
  [[nodiscard]] std::size_t size() const { return 0; }
  [[nodiscard]] std::size_t total_size() const { return 0; }
};
static_assert(Precision<UnitPrecision>);

// merge-widen: the reached element widened by the new one, widen(r, r join e). For
// domains with infinite ascending chains, where merge-join would not terminate; it
// widens wherever two states meet, not only at loop heads (less precise than abstract
// interpretation's widening at the heads of the weak topological order).
struct MergeWiden {
  template <HasWiden D>
  typename D::element operator()(const D& d, const typename D::element& e_new,
                                 const typename D::element& e_reached) const {
    return d.widen(e_reached, d.join(e_reached, e_new));
  }
  static constexpr bool is_sep = false;
};

template <TransferRelation D, class Merge = MergeSep>
class DomainAnalysis {
 public:
  using domain_type = D;
  using element = typename D::element;
  using precision = UnitPrecision;
  using merge_type = Merge;

  // From the CFA alone (CEGAR's and ProductDomain's constructors): a default domain.
  explicit DomainAnalysis(const Cfa& /*cfa*/) requires std::default_initializable<D> {}
  explicit DomainAnalysis(D domain) : d_(std::move(domain)) {}
  DomainAnalysis(const Cfa& /*cfa*/, D domain) : d_(std::move(domain)) {}

  [[nodiscard]] const domain_type& domain() const { return d_; }
  // Every state: D's top (or, as abstract interpretation assumes, a default element).
  [[nodiscard]] element initial_element() const {
    if constexpr (HasTop<D>)
      return d_.top();
    else
      return element{};
  }
  [[nodiscard]] precision initial_precision(Granularity /*g*/) const { return {}; }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& /*pi*/,
                  Sink&& sink) const {
    element s = d_.post(e, edge.operation());
    if (!d_.is_bottom(s)) sink(std::move(s));
  }

  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& /*pi*/,
                                                    Loc /*loc*/) const {
    return {e, std::nullopt, Action::Continue};
  }
  // The CPA algorithm hands over the successor it no longer needs: no copy.
  [[nodiscard]] Adjusted<element, precision> adjust(element&& e, const precision& /*pi*/,
                                                    Loc /*loc*/) const {
    return {std::move(e), std::nullopt, Action::Continue};
  }

 private:
  D d_{};
};

// The default refiner of a DomainAnalysis: refines nothing and says so (Unknown with the
// reason), so that alone CEGAR stops with that reason and in a product the other
// components' refiners decide.
class FixedPrecisionRefiner {
 public:
  using increment_type = UnitPrecision;

  FixedPrecisionRefiner() = default;
  explicit FixedPrecisionRefiner(const Cfa& /*cfa*/) {}

  Refinement<UnitPrecision> refine(const ErrorPath& path, Statistics& stats) const {
    stats.extra["fixed-precision error paths"] += 1;
    Refinement<UnitPrecision> out;
    out.kind = RefinementKind::Unknown;
    out.reason = "the abstract domain does not exclude an error path of " +
                 std::to_string(path.size()) +
                 " steps, and its analysis (DomainAnalysis) has a fixed precision: it can "
                 "neither refine nor check the path (combine it with a refinable analysis, "
                 "e.g. ProductDomain<Expl, DomainAnalysis<D>>)";
    return out;
  }
};
static_assert(Refiner<FixedPrecisionRefiner>);

template <TransferRelation D, class Merge>
struct default_refiner<DomainAnalysis<D, Merge>> {
  using type = FixedPrecisionRefiner;
};

}  // namespace precis
