#pragma once
// The explicit-value CPA C = (D_C, Pi_C, transfer, merge, stop, prec) of section II-C,
// with location-local precisions (section III-A): precision adjustment restricts each
// successor to the variables tracked at its location.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/domains/explicit/value_limits.hpp"
#include "precis/domains/explicit/variable_set.hpp"

namespace precis {

class ExplicitAnalysis {
 public:
  using domain_type = ExplicitDomain;
  using element = ExplicitState;
  using precision = LocalPrecision<VariableSet>;

  explicit ExplicitAnalysis(const Cfa& cfa) : cfa_(&cfa) {}
  // value_limit > 0: stop tracking a variable on a path once it has received more than
  // that many new values (the dynamic precision adjustment of section III-F; in a
  // product with predicates, those take over). 0 tracks without limit.
  ExplicitAnalysis(const Cfa& cfa, std::uint32_t value_limit)
      : ExplicitAnalysis(cfa, value_limit > 0 ? std::make_shared<ValueLimits>(
                                                    ValueLimitOptions{.base = value_limit})
                                              : nullptr) {}
  // Per-variable limits shared with a refiner that escalates them (ValueLimitRefiner,
  // refine/value_limit_refiner.hpp); nullptr tracks without limit.
  ExplicitAnalysis(const Cfa& cfa, std::shared_ptr<ValueLimits> limits)
      : cfa_(&cfa), limits_(std::move(limits)) {}

  [[nodiscard]] const std::shared_ptr<ValueLimits>& value_limits() const { return limits_; }

  [[nodiscard]] const domain_type& domain() const { return domain_; }
  [[nodiscard]] element initial_element() const { return element{}; }
  // pi_0: nothing tracked (CEGAR starts from the empty precision, section III-B).
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return precision(*cfa_, g, VariableSet{});
  }
  [[nodiscard]] precision full_precision() const {
    return precision(*cfa_, Granularity::Global, VariableSet::all());
  }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& /*pi*/,
                  Sink&& sink) const {
    element s = explicit_post(e, edge.operation(), limits_ != nullptr);
    if (!s.is_bottom()) sink(std::move(s));
  }

  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& pi,
                                                    Loc loc) const {
    return adjust(element(e), pi, loc);
  }
  // The CPA algorithm hands over the successor it no longer needs: restricted in place.
  [[nodiscard]] Adjusted<element, precision> adjust(element&& e, const precision& pi,
                                                    Loc loc) const {
    element r = std::move(e);
    r.restrict_to(pi.at(loc));
    if (limits_) {
      std::vector<VarId> over;
      for (const auto& [v, n] : r.history())
        if (n > limits_->limit(v)) over.push_back(v);
      for (VarId v : over) r.forget(v);
    }
    return {std::move(r), std::nullopt, Action::Continue};
  }

 private:
  const Cfa* cfa_;
  std::shared_ptr<ValueLimits> limits_;
  domain_type domain_;
};

static_assert(ConfigurableProgramAnalysis<ExplicitAnalysis, EdgeRef, Loc>);

// The name the papers use, as in precis::CEGAR<precis::Expl>.
using Expl = ExplicitAnalysis;

}  // namespace precis
