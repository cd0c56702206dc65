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
#include "precis/refine/refiner.hpp"

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
    Refinement<increment_type> out;
    std::string reasons;
    bool done = false;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (try_part<I>(path, stats, out, reasons, done), ...);
    }
    (std::index_sequence_for<Rs...>{});
    if (!done) {
      out.kind = RefinementKind::Unknown;
      out.reason = reasons;
    }
    return out;
  }

 private:
  template <std::size_t I>
  void try_part(const ErrorPath& path, Statistics& stats, Refinement<increment_type>& out,
                std::string& reasons, bool& done) {
    if (done) return;
    auto r = std::get<I>(parts_).refine(path, stats);
    switch (r.kind) {
      case RefinementKind::Feasible:
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
};

template <class... As>
struct default_refiner<ProductDomain<As...>> {
  using type = ProductRefiner<default_refiner_t<As>...>;
};

}  // namespace precis
