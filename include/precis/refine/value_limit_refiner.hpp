#pragma once
// Escalating value limits for an explicit analysis in a product (the
// product never loses what its explicit component proves alone).
//
// ExplicitAnalysis with a value limit stops tracking a variable on a path once it has
// taken more than its limit of values (predicates take over in expl+pred). A loop that
// counts x to 1000 then loses x after 64 iterations, the explicit refiner refutes the
// error path with x (already in the precision: no pivot), and predicate refinement
// unrolls the loop one iteration per refinement. This wrapper notices the refusal: the
// explicit part of the refinement names a variable that the limit cut off on this path.
// After the limits' patience the variable goes one level up (a limit `escalation` times
// larger, domains/explicit/value_limits.hpp) and, since limits are not part of the
// precision, the refinement asks CEGAR to rebuild the ARG (Refinement::restart).
//
//   auto limits = std::make_shared<precis::ValueLimits>();
//   Product analysis(precis::Expl(cfa, limits), precis::Pred(cfa));
//   precis::ValueLimitRefiner refiner(limits, precis::ProductRefiner<...>(cfa));

#include <algorithm>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "precis/core/result.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/domains/explicit/value_limits.hpp"
#include "precis/domains/explicit/variable_set.hpp"
#include "precis/path/error_path.hpp"

namespace precis {

namespace detail {
// The explicit variables of an increment: the increment itself, or the first
// component of a product increment.
template <class Inc>
const VariableSet* explicit_variables(const Inc& inc) {
  if constexpr (std::is_same_v<Inc, VariableSet>)
    return &inc;
  else if constexpr (requires { std::get<0>(inc.parts); }) {
    if constexpr (std::is_same_v<std::decay_t<decltype(std::get<0>(inc.parts))>, VariableSet>)
      return &std::get<0>(inc.parts);
    else
      return nullptr;
  } else
    return nullptr;
}
}  // namespace detail

// How many new values each variable receives along the path when every variable is
// tracked (an upper bound of what the limited analysis counted on it).
inline ExplicitState::history_type value_changes(const ErrorPath& path) {
  ExplicitState s;
  for (const auto& step : path.steps) {
    s = explicit_post(s, step.operation(), /*count_changes=*/true);
    if (s.is_bottom()) break;
  }
  return s.history();
}

template <class R>
class ValueLimitRefiner {
 public:
  using increment_type = typename R::increment_type;

  ValueLimitRefiner(std::shared_ptr<ValueLimits> limits, R inner)
      : limits_(std::move(limits)), inner_(std::move(inner)) {}

  Refinement<increment_type> refine(const ErrorPath& path, Statistics& stats) {
    auto r = inner_.refine(path, stats);
    if (r.kind != RefinementKind::Spurious || !limits_) return r;
    std::vector<VarId> named;
    for (const auto& [i, inc] : r.increments)
      if (const VariableSet* vs = detail::explicit_variables(inc))
        for (VarId v : *vs) named.push_back(v);
    if (named.empty()) return r;
    const auto changes = value_changes(path);
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    for (VarId v : named) {
      auto it = changes.find(v);
      if (it == changes.end() || it->second <= limits_->limit(v)) continue;
      stats.extra["value limit refusals"] += 1;
      if (limits_->refuse(v)) {
        stats.extra["value limit escalations"] += 1;
        r.restart = true;
      }
    }
    return r;
  }

  Refinement<increment_type> refine_further(const ErrorPath& path, Statistics& stats) requires
      requires(R& r, const ErrorPath& p, Statistics& s) {
    r.refine_further(p, s);
  }
  { return inner_.refine_further(path, stats); }

  [[nodiscard]] R& inner() { return inner_; }
  [[nodiscard]] const std::shared_ptr<ValueLimits>& limits() const { return limits_; }

 private:
  std::shared_ptr<ValueLimits> limits_;
  R inner_;
};

// Refinement selection (refine/refinement_selection.hpp) reaches through the wrapper.
template <class R, class Precision>
void connect_precision(ValueLimitRefiner<R>& r, const std::shared_ptr<const Precision>& current) {
  connect_precision(r.inner(), current);
}

}  // namespace precis
