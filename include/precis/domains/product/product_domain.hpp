#pragma once
// ProductDomain<As...>: the composite of several analyses (one variadic product, no
// copy-pasted fixed-arity versions). Elements, precisions and refinement increments
// are tuples; every operation is the componentwise fold:
//   bottom if any component is bottom; leq / join componentwise;
//   successors: the product of the components' successor sets;
//   precision adjustment: componentwise, Break if any component breaks.
//
//   precis::CEGAR<precis::ProductDomain<precis::Expl, precis::Pred>> cegar{cfa, options};
//
// reads as the papers do (explicit-value paper III-F "auxiliary predicate analysis";
// product-abstraction paper, section 3). The default refiner is ProductRefiner over the
// components' default refiners, tried in order (explicit first).

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"

namespace precis {

template <class... Es>
struct ProductState {
  std::tuple<Es...> parts;

  template <std::size_t I>
  [[nodiscard]] const auto& get() const {
    return std::get<I>(parts);
  }
  template <std::size_t I>
  [[nodiscard]] auto& get() {
    return std::get<I>(parts);
  }
};

// A certificate disjunct (certify/certificate.hpp): the conjunction of the parts' formulas.
template <class... Es>
requires(HasFormula<Es>&&...) Term to_formula(const ProductState<Es...>& s, ExprManager& em) {
  return std::apply(
      [&](const Es&... e) { return em.conj(std::vector<Term>{to_formula(e, em)...}); }, s.parts);
}

namespace detail {
// A component's part of the product's support: its own support if it has one, else
// nothing (it contributes no key, and leq decides on the candidates).
struct NoComponentSupport {
  bool operator==(const NoComponentSupport&) const = default;
};
template <class D>
struct ComponentSupport {
  using type = NoComponentSupport;
};
template <ProjectionCovering D>
struct ComponentSupport<D> {
  using type = typename D::support_type;
};
}  // namespace detail

// The lattice of a product: componentwise.
template <class... Ds>
class ProductLattice {
  static constexpr bool keyed = (ProjectionCovering<Ds> || ...);

 public:
  using element = ProductState<typename Ds::element...>;
  // Covering in a product is covering in every component, so the product is
  // ProjectionCovering on the components that are (e.g. the explicit part of
  // Expl x Pred): the reached set finds the candidates by the explicit values and leq
  // checks the predicate part.
  using support_type = std::tuple<typename detail::ComponentSupport<Ds>::type...>;

  ProductLattice() = default;
  explicit ProductLattice(const Ds*... ds) : ds_(ds...) {}

  [[nodiscard]] element bottom() const {
    return element{std::apply([](const Ds*... d) { return std::tuple{d->bottom()...}; }, ds_)};
  }
  template <std::size_t I>
  [[nodiscard]] const auto& component() const {
    return *std::get<I>(ds_);
  }
  [[nodiscard]] bool is_bottom(const element& e) const {
    return any(e, [](const auto& d, const auto& x) { return d.is_bottom(x); });
  }
  [[nodiscard]] bool leq(const element& a, const element& b) const {
    if (is_bottom(a)) return true;
    if (is_bottom(b)) return false;
    return all2(a, b, [](const auto& d, const auto& x, const auto& y) { return d.leq(x, y); });
  }
  [[nodiscard]] element join(const element& a, const element& b) const {
    if (is_bottom(a)) return b;
    if (is_bottom(b)) return a;
    return map2(a, b, [](const auto& d, const auto& x, const auto& y) { return d.join(x, y); });
  }

  [[nodiscard]] std::size_t hash(const element& e) const requires keyed {
    return hash_on(e, support(e));
  }
  [[nodiscard]] support_type support(const element& e) const requires keyed {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return support_type{component_support<I>(std::get<I>(e.parts))...};
    }
    (std::index_sequence_for<Ds...>{});
  }
  [[nodiscard]] bool within(const support_type& s, const element& e) const requires keyed {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (component_within<I>(std::get<I>(s), std::get<I>(e.parts)) && ...);
    }
    (std::index_sequence_for<Ds...>{});
  }
  [[nodiscard]] bool same_support(const support_type& s, const element& e) const requires keyed {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (component_same_support<I>(std::get<I>(s), std::get<I>(e.parts)) && ...);
    }
    (std::index_sequence_for<Ds...>{});
  }
  [[nodiscard]] std::size_t hash_on(const element& e, const support_type& s) const requires keyed {
    std::size_t h = 0x84222325U;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((h = (h ^ component_hash_on<I>(std::get<I>(e.parts), std::get<I>(s))) * 0x100000001B3ULL),
       ...);
    }
    (std::index_sequence_for<Ds...>{});
    return h;
  }

 private:
  template <std::size_t I, class E>
  auto component_support(const E& x) const {
    using D = std::tuple_element_t<I, std::tuple<Ds...>>;
    if constexpr (ProjectionCovering<D>)
      return std::get<I>(ds_)->support(x);
    else
      return detail::NoComponentSupport{};
  }
  template <std::size_t I, class S, class E>
  bool component_within(const S& s, const E& x) const {
    using D = std::tuple_element_t<I, std::tuple<Ds...>>;
    if constexpr (ProjectionCovering<D>)
      return std::get<I>(ds_)->within(s, x);
    else
      return true;
  }
  template <std::size_t I, class S, class E>
  bool component_same_support(const S& s, const E& x) const {
    using D = std::tuple_element_t<I, std::tuple<Ds...>>;
    if constexpr (ProjectionCovering<D>)
      return std::get<I>(ds_)->same_support(s, x);
    else
      return true;
  }
  template <std::size_t I, class E, class S>
  std::size_t component_hash_on(const E& x, const S& s) const {
    using D = std::tuple_element_t<I, std::tuple<Ds...>>;
    if constexpr (ProjectionCovering<D>)
      return std::get<I>(ds_)->hash_on(x, s);
    else
      return 0;
  }

  template <class F>
  bool any(const element& e, F&& f) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (f(*std::get<I>(ds_), std::get<I>(e.parts)) || ...);
    }
    (std::index_sequence_for<Ds...>{});
  }
  template <class F>
  bool all2(const element& a, const element& b, F&& f) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (f(*std::get<I>(ds_), std::get<I>(a.parts), std::get<I>(b.parts)) && ...);
    }
    (std::index_sequence_for<Ds...>{});
  }
  template <class F>
  element map2(const element& a, const element& b, F&& f) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return element{
          std::tuple{f(*std::get<I>(ds_), std::get<I>(a.parts), std::get<I>(b.parts))...}};
    }
    (std::index_sequence_for<Ds...>{});
  }

  std::tuple<const Ds*...> ds_;
};

// A refinement increment of a product: one (possibly empty) increment per component.
template <class... Ps>
struct ProductIncrement {
  std::tuple<Ps...> parts;
};

// The precisions of the components at one location, as CEGAR compares them.
template <class... Ps>
struct ProductPrecisionAt {
  std::tuple<const Ps*...> parts;
  [[nodiscard]] bool leq(const ProductPrecisionAt& o) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(parts)->leq(*std::get<I>(o.parts)) && ...);
    }
    (std::index_sequence_for<Ps...>{});
  }
};

// The product of the components' (location-local) precisions.
template <class... LPs>
class ProductPrecision {
 public:
  ProductPrecision() = default;
  explicit ProductPrecision(LPs... ps) : parts_(std::move(ps)...) {}

  template <std::size_t I>
  [[nodiscard]] const auto& get() const {
    return std::get<I>(parts_);
  }

  [[nodiscard]] auto at(Loc l) const {
    return std::apply(
        [&](const LPs&... p) {
          return ProductPrecisionAt<std::remove_cvref_t<decltype(p.at(l))>...>{
              std::tuple{&p.at(l)...}};
        },
        parts_);
  }
  template <class... Incs>
  bool add(Loc l, const ProductIncrement<Incs...>& inc, const ExprManager& em) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      // Every component adds its part (no short circuit), then: did any change?
      bool changed = false;
      ((changed = std::get<I>(parts_).add(l, std::get<I>(inc.parts), em) || changed), ...);
      return changed;
    }
    (std::index_sequence_for<LPs...>{});
  }
  [[nodiscard]] bool leq(const ProductPrecision& o) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(parts_).leq(std::get<I>(o.parts_)) && ...);
    }
    (std::index_sequence_for<LPs...>{});
  }
  [[nodiscard]] ProductPrecision join(const ProductPrecision& o) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return ProductPrecision(std::get<I>(parts_).join(std::get<I>(o.parts_))...);
    }
    (std::index_sequence_for<LPs...>{});
  }
  [[nodiscard]] std::size_t total_size() const {
    return std::apply([](const LPs&... p) { return (p.total_size() + ... + 0); }, parts_);
  }

 private:
  std::tuple<LPs...> parts_;
};

// The merge of a product ("agree"): components whose own merge is sep must hold equal
// elements, then every other component merges with its own operator (e.g. the path
// formulas of ABE, domains/predicate/abe_analysis.hpp); otherwise sep. A product of
// merge-sep components is merge-sep.
template <class... Ms>
struct ProductMerge {
  static constexpr bool is_sep = false;

  template <class L, class E>
  [[nodiscard]] bool skip(const L& d, const E& e_new) const {
    // Skipped when some merging component never merges this element.
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (skip_part<I>(d, e_new) || ...);
    }
    (std::index_sequence_for<Ms...>{});
  }

  template <class L, class E>
  E operator()(const L& d, const E& e_new, const E& e_reached) const {
    const bool agree = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (agrees<I>(d, e_new, e_reached) && ...);
    }
    (std::index_sequence_for<Ms...>{});
    if (!agree) return e_reached;
    E out = e_reached;
    [&]<std::size_t... I>(std::index_sequence<I...>) { ((merge_part<I>(d, e_new, out)), ...); }
    (std::index_sequence_for<Ms...>{});
    return out;
  }

 private:
  template <std::size_t I>
  using M = std::tuple_element_t<I, std::tuple<Ms...>>;

  template <std::size_t I, class L, class E>
  bool skip_part(const L& d, const E& e) const {
    if constexpr (requires { M<I>{}.skip(d.template component<I>(), e.template get<I>()); })
      return M<I>{}.skip(d.template component<I>(), e.template get<I>());
    else
      return false;
  }
  template <std::size_t I, class L, class E>
  bool agrees(const L& d, const E& a, const E& b) const {
    if constexpr (M<I>::is_sep) {
      const auto& c = d.template component<I>();
      return c.leq(a.template get<I>(), b.template get<I>()) &&
             c.leq(b.template get<I>(), a.template get<I>());
    } else {
      return true;
    }
  }
  template <std::size_t I, class L, class E>
  void merge_part(const L& d, const E& e_new, E& out) const {
    if constexpr (!M<I>::is_sep)
      out.template get<I>() =
          M<I>{}(d.template component<I>(), e_new.template get<I>(), out.template get<I>());
  }
};

namespace detail {
template <class... Ms>
struct product_merge {
  using type =
      std::conditional_t<(std::is_same_v<Ms, MergeSep> && ...), MergeSep, ProductMerge<Ms...>>;
};
}  // namespace detail

template <class... As>
class ProductDomain {
 public:
  using domain_type = ProductLattice<typename As::domain_type...>;
  using element = typename domain_type::element;
  using precision = ProductPrecision<typename As::precision...>;
  using merge_type = typename detail::product_merge<default_merge_t<As>...>::type;
  static constexpr std::size_t size = sizeof...(As);

  explicit ProductDomain(const Cfa& cfa) requires(std::constructible_from<As, const Cfa&>&&...)
      : parts_(As(cfa)...) {
    init_lattice();
  }
  explicit ProductDomain(As... parts) : parts_(std::move(parts)...) { init_lattice(); }
  ProductDomain(const ProductDomain& o) : parts_(o.parts_) { init_lattice(); }
  ProductDomain(ProductDomain&& o) noexcept : parts_(std::move(o.parts_)) { init_lattice(); }
  ProductDomain& operator=(const ProductDomain&) = delete;
  ProductDomain& operator=(ProductDomain&&) = delete;

  template <std::size_t I>
  [[nodiscard]] auto& part() {
    return std::get<I>(parts_);
  }
  template <std::size_t I>
  [[nodiscard]] const auto& part() const {
    return std::get<I>(parts_);
  }

  [[nodiscard]] const domain_type& domain() const { return lattice_; }

  [[nodiscard]] element initial_element() const {
    return element{
        std::apply([](const As&... a) { return std::tuple{a.initial_element()...}; }, parts_)};
  }
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return std::apply([&](const As&... a) { return precision(a.initial_precision(g)...); }, parts_);
  }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& pi, Sink&& sink) {
    // Successor sets per component; an empty one means no successor at all.
    std::tuple<std::vector<typename As::element>...> succ;
    bool none = false;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((none = none || !collect<I>(e, edge, pi, std::get<I>(succ))), ...);
    }
    (std::index_sequence_for<As...>{});
    if (none) return;
    combine<0>(succ, std::tuple<>{}, sink);
  }

  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& pi,
                                                    Loc loc) const {
    Adjusted<element, precision> out{e, std::nullopt, Action::Continue};
    [&]<std::size_t... I>(std::index_sequence<I...>) { (adjust_part<I>(e, pi, loc, out), ...); }
    (std::index_sequence_for<As...>{});
    return out;
  }

  // Certificates (certify/): a location is a certificate point when every component
  // has a formula over the program variables there (ABE components only at their
  // abstraction points); nullopt when every location is one.
  [[nodiscard]] std::optional<std::vector<bool>> certificate_points() const {
    std::optional<std::vector<bool>> out;
    std::apply(
        [&](const As&... a) {
          (
              [&] {
                if constexpr (HasCertificatePoints<std::decay_t<decltype(a)>>) {
                  const auto pts = a.certificate_points();  // once per certificate
                  const std::vector<bool>* p = nullptr;
                  if constexpr (std::is_same_v<std::decay_t<decltype(pts)>, std::vector<bool>>)
                    p = &pts;
                  else if (pts)
                    p = &*pts;
                  if (!p) return;
                  if (!out) {
                    out = *p;
                  } else {
                    for (std::size_t l = 0; l < out->size() && l < p->size(); ++l)
                      (*out)[l] = (*out)[l] && (*p)[l];
                  }
                }
              }(),
              ...);
        },
        parts_);
    return out;
  }

  // Component statistics (solver calls, caches, ...), if the components have any.
  void report(Statistics& st) const {
    std::apply(
        [&](const As&... a) {
          (
              [&] {
                if constexpr (ReportsStatistics<std::decay_t<decltype(a)>>) a.report(st);
              }(),
              ...);
        },
        parts_);
  }

 private:
  void init_lattice() {
    lattice_ = std::apply([](const As&... a) { return domain_type(&a.domain()...); }, parts_);
  }

  template <std::size_t I, class Vec>
  bool collect(const element& e, const EdgeRef& edge, const precision& pi, Vec& out) {
    std::get<I>(parts_).successors(std::get<I>(e.parts), edge, pi.template get<I>(),
                                   [&](auto&& s) { out.push_back(std::move(s)); });
    return !out.empty();
  }

  template <std::size_t I, class Succ, class Prefix, class Sink>
  void combine(const Succ& succ, const Prefix& prefix, Sink& sink) {
    if constexpr (I == sizeof...(As)) {
      sink(element{std::apply([](const auto&... x) { return std::tuple{x...}; }, prefix)});
    } else {
      for (const auto& s : std::get<I>(succ))
        combine<I + 1>(succ, std::tuple_cat(prefix, std::tuple<const decltype(s)&>(s)), sink);
    }
  }

  template <std::size_t I>
  void adjust_part(const element& e, const precision& pi, Loc loc,
                   Adjusted<element, precision>& out) const {
    auto a = std::get<I>(parts_).adjust(std::get<I>(e.parts), pi.template get<I>(), loc);
    std::get<I>(out.element.parts) = std::move(a.element);
    if (a.action == Action::Break) out.action = Action::Break;
    // Components that change their own precision are not supported in a product yet;
    // their element adjustment still applies.
  }

  std::tuple<As...> parts_;
  domain_type lattice_;
};

}  // namespace precis
