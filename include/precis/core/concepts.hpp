#pragma once
// The vocabulary of precis as C++20 concepts. Names follow the papers (CPA: Beyer,
// Henzinger, Theoduloz; "Explicit-Value Analysis Based on CEGAR and Interpolation",
// section II): an abstract domain, a precision, a transfer relation, merge / stop
// operators and a precision adjustment, bundled as a configurable program analysis.
//
// Every concept an algorithm of precis asks of a user's type lives here: a wrong type
// fails with the concept's name in the first error. Only the standard library is
// included, so that a user's domain header that states conformance stays cheap to
// compile; the library's types the concepts mention are declared ahead below and defined
// in their layers (the check happens where the algorithm uses the concept, where they
// are complete).

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <variant>
#include <vector>

namespace precis {

// ---- the library's types the concepts name (defined in their own layers) ---------------

class ExprManager;  // expr/term.hpp: the terms' store
class Term;         // expr/term.hpp: a formula or expression
struct Skip;        // cfa/operation.hpp: the operations on CFA edges
struct Assume;
struct Assign;
struct Havoc;
using Operation = std::variant<Skip, Assume, Assign, Havoc>;
struct Statistics;          // core/result.hpp
struct VerificationResult;  // core/result.hpp
struct Limits;              // core/limits.hpp
struct ErrorPath;           // path/error_path.hpp
template <class Increment>
struct Refinement;  // path/error_path.hpp

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

// ---- transfer relations ----------------------------------------------------------------

// A domain with a sound transfer function over the CFA's operations: post(e, op) over-
// approximates the states op reaches from e (the CPA paper's transfer relation for a
// domain without a precision). DomainAnalysis makes such a domain a CPA.
template <class D>
concept TransferRelation = AbstractDomain<D> &&
    requires(const D& d, const typename D::element& e, const Operation& op) {
  { d.post(e, op) } -> std::convertible_to<typename D::element>;
};

// What abstract interpretation needs (algorithms/abstract_interpreter.hpp): a transfer
// relation and a widening.
template <class D>
concept InterpretableDomain = TransferRelation<D> && HasWiden<D>;

// An element that can be written as a formula over the program variables (certificates,
// VINTA's labels, the product's conjunction of parts).
template <class E>
concept HasFormula = requires(const E& e, ExprManager& em) {
  { to_formula(e, em) } -> std::convertible_to<Term>;
};

// What VINTA needs (algorithms/vinta.hpp; its paper, section 4): abstract interpretation
// with a top element and labels that become formulas for interpolation.
template <class D>
concept VintaDomain = InterpretableDomain<D> && HasTop<D> && HasFormula<typename D::element>;

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

// ---- algorithms ------------------------------------------------------------------------

// One shape for every verification algorithm (CEGAR, BMC, k-induction, random simulation,
// VINTA, synergy): built from a CFA and its options, run(limits) gives the verdict with
// its evidence (a replayed counterexample, a certified SAFE) or UNKNOWN with a reason,
// ending by itself at the limits.
template <class A>
concept Algorithm = requires(A& a, const Limits& limits) {
  { a.run(limits) } -> std::same_as<VerificationResult>;
};

// ---- refiners -------------------------------------------------------------------------

// Refinement (explicit-value paper, Alg. 2, refine): given an error path of the ARG, either
// refute it with precision increments at its locations, confirm it with a counterexample
// that the concrete interpreter replayed, or say why neither was possible.
template <class R>
concept Refiner = requires(R& r, const ErrorPath& path, Statistics& stats) {
  typename R::increment_type;
  { r.refine(path, stats) } -> std::same_as<Refinement<typename R::increment_type>>;
};

// ---- the optional hooks an algorithm calls -----------------------------------------------
//
// An algorithm calls a hook when the type has it. Each hook is a concept of its own, and
// where a type has a member of the hook's name whose signature the hook does not accept,
// the algorithm stops with a static_assert naming the concept (a hook with a mistaken
// signature would otherwise never be called). `precis::hook_mismatch<T>` is that test.

// report(stats): an analysis, precision or refiner adds its counters to the run's
// statistics (CEGAR, the products).
template <class T>
concept ReportsStatistics = requires(const T& t, Statistics& stats) {
  t.report(stats);
};

// on_added(e) / on_removed(e): an analysis follows the reached set (CpaAlgorithm), e.g. to
// count the distinct values of a variable across it (product-abstraction paper, Alg. 3).
template <class A>
concept ObservesReachedSet = requires(A& a, const typename A::element& e) {
  a.on_added(e);
  a.on_removed(e);
};

// full_precision(): the precision that tracks everything, for CEGAR's track_all (the
// explicit-value paper's CPA-EXPL without refinement).
template <class A>
concept HasFullPrecision = requires(const A& a) {
  { a.full_precision() } -> std::convertible_to<typename A::precision>;
};

// precision_points(): the locations where an analysis reads its precision (the abstraction
// points of adjustable-block encoding); CEGAR's pivot ignores changes elsewhere.
template <class A>
concept HasPrecisionPoints = requires(const A& a) {
  { a.precision_points() } -> std::convertible_to<const std::vector<bool>&>;
};

// certificate_points(): the locations where an analysis's elements are invariants (a
// certificate between points, certify/certificate.hpp).
template <class A>
concept HasCertificatePoints = requires(const A& a) {
  a.certificate_points();
};

// refine_further(path, stats): a refiner that can add more when its first answer changed no
// node of the path (CEGAR asks again instead of giving up).
template <class R>
concept RefinesFurther = Refiner<R> && requires(R& r, const ErrorPath& path, Statistics& stats) {
  { r.refine_further(path, stats) } -> std::same_as<Refinement<typename R::increment_type>>;
};

// widen_with(xs, y): a domain's own WIDENWITH over the unrollings of a loop (VINTA paper,
// section 4.2); VINTA builds one from widen and join otherwise.
template <class D>
concept WidensWith = AbstractDomain<D> &&
    requires(const D& d, std::span<const typename D::element> xs, const typename D::element& y) {
  { d.widen_with(xs, y) } -> std::convertible_to<typename D::element>;
};

namespace detail {
// A type has one member of the hook's name (not an overload set or a template): where the
// hook's concept then fails, the member was meant as the hook with a wrong signature.
template <class T>
concept names_report = requires {
  &T::report;
};
template <class T>
concept names_full_precision = requires {
  &T::full_precision;
};
template <class T>
concept names_precision_points = requires {
  &T::precision_points;
};
template <class T>
concept names_refine_further = requires {
  &T::refine_further;
};
}  // namespace detail

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
