#pragma once
// The vocabulary of precis as C++20 concepts. Names follow the papers (CPA: Beyer,
// Henzinger, Theoduloz; "Explicit-Value Analysis Based on CEGAR and Interpolation",
// section II): an abstract domain, a precision, a transfer relation, merge / stop
// operators and a precision adjustment, bundled as a configurable program analysis.
//
// Only the standard library is included here, so that a user's domain header that
// states conformance stays cheap to compile.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace precis {

// ---- abstract domains ------------------------------------------------------------------

template <class D>
concept AbstractDomain = requires(const D& d, const typename D::element& a,
                                  const typename D::element& b) {
  typename D::element;
  { d.bottom() } -> std::convertible_to<typename D::element>;
  { d.is_bottom(a) } -> std::convertible_to<bool>;
  { d.leq(a, b) } -> std::convertible_to<bool>;
  { d.join(a, b) } -> std::convertible_to<typename D::element>;
};

// Optional operations, detected with `requires`.
template <class D>
concept HasWiden = AbstractDomain<D> && requires(const D& d, const typename D::element& a) {
  { d.widen(a, a) } -> std::convertible_to<typename D::element>;
};
template <class D>
concept HasMeet = AbstractDomain<D> && requires(const D& d, const typename D::element& a) {
  { d.meet(a, a) } -> std::convertible_to<typename D::element>;
};
template <class D>
concept HasNarrow = AbstractDomain<D> && requires(const D& d, const typename D::element& a) {
  { d.narrow(a, a) } -> std::convertible_to<typename D::element>;
};
template <class D>
concept HasTop = AbstractDomain<D> && requires(const D& d) {
  { d.top() } -> std::convertible_to<typename D::element>;
};

// Stop-sep over a reached set of 10^6 states must not compare a new state with every
// state at its location (a counting loop would be quadratic). Two refinements of
// AbstractDomain let the reached set index its elements instead:
//
// HashableDomain: hash(e) agrees with equality (a <= b and b <= a imply equal hashes).
//   The reached set finds an equal reached element with one lookup.
template <class D>
concept HashableDomain = AbstractDomain<D> && requires(const D& d, const typename D::element& a) {
  { d.hash(a) } -> std::convertible_to<std::size_t>;
};

// ProjectionCovering: covering is equality on a projection. Every element has a
// support (for explicit values: the set of bound variables), and for non-bottom a, b
//     a <= b  implies  within(support(b), a)  and  hash_on(a, support(b)) == hash(b),
// where within(s, a) says that a's support includes s (same_support: equals s) and hash_on(a, s)
// hashes a restricted to s. The reached set groups its elements by support and answers "is e
// covered?" with one hash lookup per distinct support at the location, then confirms the candidates
// with leq, so stop-sep keeps its meaning exactly.
template <class D>
concept ProjectionCovering = HashableDomain<D> &&
    requires(const D& d, const typename D::element& a, const typename D::support_type& s) {
  typename D::support_type;
  requires std::equality_comparable<typename D::support_type>;
  { d.support(a) } -> std::convertible_to<typename D::support_type>;
  { d.within(s, a) } -> std::convertible_to<bool>;
  { d.same_support(s, a) } -> std::convertible_to<bool>;  // s == support(a), no copy
  { d.hash_on(a, s) } -> std::convertible_to<std::size_t>;
};

// ---- precisions ------------------------------------------------------------------------

// A precision is a value that can be refined (join) and compared (leq).
template <class P>
concept Precision = std::copyable<P> && requires(const P& a, const P& b) {
  { a.join(b) } -> std::convertible_to<P>;
  { a.leq(b) } -> std::convertible_to<bool>;
};

// ---- precision adjustment --------------------------------------------------------------

enum class Action : std::uint8_t { Continue, Break };

// Result of prec(e, pi, reached): the adjusted element, a new precision if the
// adjustment changed it (dynamic precision adjustment), and continue/break.
template <class E, class P>
struct Adjusted {
  E element;
  std::optional<P> precision;  // nullopt: unchanged
  Action action = Action::Continue;
};

// ---- the CPA ---------------------------------------------------------------------------

// A data analysis run by the CPA algorithm in composition with the location CPA (the
// algorithm owns the location component, so `successors` is told the CFA edge).
//
//   successors(e, edge, pi, sink): calls sink(e') for every abstract successor of e
//     along `edge` (zero, one or many: enumerating domains produce several);
//   adjust(e, pi, loc): the precision adjustment prec(e, pi, reached) of Alg. 1.
//
// `Edge` is whatever the algorithm passes (precis passes precis::EdgeRef).
template <class A, class Edge, class Loc>
concept ConfigurableProgramAnalysis = requires(A& a, const typename A::element& e,
                                               const typename A::precision& p, const Edge& edge,
                                               Loc loc) {
  typename A::domain_type;
  typename A::element;
  typename A::precision;
  requires AbstractDomain<typename A::domain_type>;
  requires std::same_as<typename A::element, typename A::domain_type::element>;
  { a.domain() } -> std::convertible_to<const typename A::domain_type&>;
  { a.initial_element() } -> std::convertible_to<typename A::element>;
  a.successors(e, edge, p, [](typename A::element&&) {});
  {
    a.adjust(e, p, loc)
    } -> std::convertible_to<Adjusted<typename A::element, typename A::precision>>;
};

// merge-sep: never combine (the explicit-value analysis of the paper).
struct MergeSep {
  template <class D>
  const typename D::element& operator()(const D&, const typename D::element& /*e_new*/,
                                        const typename D::element& e_reached) const {
    return e_reached;
  }
  static constexpr bool is_sep = true;
};

// merge-join: join when control flow meets at the same location.
struct MergeJoin {
  template <class D>
  typename D::element operator()(const D& d, const typename D::element& e_new,
                                 const typename D::element& e_reached) const {
    return d.join(e_new, e_reached);
  }
  static constexpr bool is_sep = false;
};

// The merge operator an analysis asks for (its `merge_type`), merge-sep otherwise; the
// CEGAR algorithm's default. A merge operator may also offer skip(domain, e_new): true
// when e_new merges with nothing, so the CPA algorithm need not scan the reached set.
template <class A>
struct default_merge {
  using type = MergeSep;
};
template <class A>
requires requires { typename A::merge_type; }
struct default_merge<A> {
  using type = typename A::merge_type;
};
template <class A>
using default_merge_t = typename default_merge<A>::type;

// stop-sep: e is covered if some single reached element at its location is above it.
// Returns the covering reached node, or nullptr. (Reached nodes expose `element`.)
// The CPA algorithm calls the reached-set form, which uses the reached set's index
// (see ProjectionCovering); the scan form is for user-written stop operators to reuse.
struct StopSep {
  template <class D, class Node>
  Node* operator()(const D& d, const typename D::element& e,
                   const std::vector<Node*>& reached_at_location) const {
    for (Node* r : reached_at_location)
      if (d.leq(e, r->element)) return r;
    return nullptr;
  }
  template <class D, class Reached, class L>
  auto operator()(const D& d, const typename D::element& e, const Reached& reached, L loc) const
      -> decltype(reached.find_cover(d, e, loc)) {
    return reached.find_cover(d, e, loc);
  }
};

}  // namespace precis
