#pragma once
// ProductRefiner<Rs...>: refinement for ProductDomain. The component refiners are tried
// in order (the explicit-value paper, III-F "auxiliary predicate analysis": explicit
// refinement first, predicate refinement only for paths explicit values cannot refute).
// The first component that refutes the path gives the increment (for its component
// only); a replayed counterexample from any component ends the run as UNSAFE; if none
// can decide, the result is Unknown with every component's reason.

#include <string>
#include <tuple>
#include <utility>

#include "precis/domains/product/product_domain.hpp"
#include "precis/path/refiner.hpp"

namespace precis {

template <class... Rs>
class ProductRefiner {
 public:
  using increment_type = ProductIncrement<typename Rs::increment_type...>;

  explicit ProductRefiner(const Cfa& cfa) requires(std::constructible_from<Rs, const Cfa&>&&...)
      : parts_(Rs(cfa)...) {}
  explicit ProductRefiner(Rs... parts) : parts_(std::move(parts)...) {}

  template <std::size_t I>
  [[nodiscard]] auto& part() {
    return std::get<I>(parts_);
  }

  Refinement<increment_type> refine(const ErrorPath& path, Statistics& stats) {
    return refine_from(0, path, stats);
  }

  // Called by CEGAR when the last refinement changed no node of the path (e.g. the
  // explicit component stopped tracking a variable with too many values, so explicit
  // interpolation names variables that are already in the precision): the components
  // after the one that answered get their turn.
  Refinement<increment_type> refine_further(const ErrorPath& path, Statistics& stats) {
    if (last_ + 1 >= sizeof...(Rs)) return {};
    return refine_from(last_ + 1, path, stats);
  }

 private:
  Refinement<increment_type> refine_from(std::size_t first, const ErrorPath& path,
                                         Statistics& stats) {
    Refinement<increment_type> out;
    std::string reasons;
    bool done = false;
    auto each = [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((I >= first ? try_part<I>(path, stats, out, reasons, done) : void()), ...);
    };
    each(std::index_sequence_for<Rs...>{});
    if (!done) {
      out.kind = RefinementKind::Unknown;
      out.reason = reasons;
    }
    return out;
  }

  template <std::size_t I>
  void try_part(const ErrorPath& path, Statistics& stats, Refinement<increment_type>& out,
                std::string& reasons, bool& done) {
    if (done) return;
    auto r = std::get<I>(parts_).refine(path, stats);
    switch (r.kind) {
      case RefinementKind::Feasible:
        last_ = I;
        out.kind = RefinementKind::Feasible;
        out.counterexample = std::move(r.counterexample);
        done = true;
        return;
      case RefinementKind::Spurious:
        if (r.increments.empty()) break;  // refuted without news: let the next one try
        out.kind = RefinementKind::Spurious;
        for (auto& [i, inc] : r.increments) {
          increment_type p;
          std::get<I>(p.parts) = std::move(inc);
          out.increments.emplace_back(i, std::move(p));
        }
        stats.extra["refinements by component " + std::to_string(I)] += 1;
        last_ = I;
        done = true;
        return;
      case RefinementKind::Unknown: break;
    }
    if (!r.reason.empty()) {
      if (!reasons.empty()) reasons += "; ";
      reasons += r.reason;
    }
  }

  std::tuple<Rs...> parts_;
  std::size_t last_ = 0;  // the component that answered last
};

template <class... As>
struct default_refiner<ProductDomain<As...>> {
  using type = ProductRefiner<default_refiner_t<As>...>;
};

}  // namespace precis
