#pragma once
// Slice-based refinement selection (sliced-prefixes paper, section IV, Alg. 4) as a
// refiner wrapper, and the selection heuristics of section IV-A.
//
//   precis::SelectingRefiner<precis::ExplicitRefiner> r(cfa, precis::ExplicitRefiner(cfa),
//                                                       precis::parse_prefix_selection("domain",
//                                                       cfa));
//   precis::CEGAR<precis::Expl, decltype(r)> cegar(cfa, opts, precis::Expl(cfa), std::move(r));
//   precis::connect_precision(cegar.refiner(), cegar.current_precision());  // optional
//
// SelectingRefiner<Inner, Selector> satisfies Refiner whenever Inner does. For an error
// path it extracts the infeasible sliced prefixes (Alg. 3, refine/sliced_prefixes.hpp;
// the back end is the one prefix_provider names for Inner: explicit strongest post for
// ExplicitRefiner, cvc5 for PredicateRefiner with refine/sliced_prefixes_smt.hpp), has
// Inner interpolate each prefix (or, for selectors that look only at prefix lengths,
// just the one they pick) and refines with the interpolants of the chosen prefix; the
// paper's proposition (III-B1) makes them interpolants of the whole path. A path with
// no infeasible sliced prefix (feasible, or not refutable by the back end) goes to Inner
// as it is, so a counterexample is reported exactly as Inner reports it.
//
// Selectors (section IV-A) score a candidate prefix; lower is better, and Lexicographic
// combines them (ties broken by the next, finally by the earlier prefix):
//   ShortestPrefix, LongestPrefix         by the length of the prefix;
//   DomainTypeScore                       the paper's domain types (Boolean < equality-
//                                         only < arithmetic < loop counter) of the
//                                         variables the increments mention: the worst
//                                         variable, then the number of variables;
//   FewestVariables                       the number of variables;
//   ShallowPivot, DeepPivot               by the pivot, the least path position whose
//                                         precision the increments change (CEGAR prunes
//                                         the ARG there): nearest the root, or farthest
//                                         from it (the least of the ARG re-explored);
//   JoinAllPrefixes ("all")               no choice: the join of every prefix's increments;
//   NoSelection ("none")                  Inner on the whole path, as without this wrapper.
// PrefixSelection is the same at run time, parsed from "domain,shallow" and the like.
// Prefixes whose increments add nothing to the current precision (known through
// connect_precision) rank after all others.
//
// Statistics (Statistics::extra, "sliced prefixes (expl): ..."): prefixes found per
// refinement (min / avg / max), prefixes interpolated, the chosen prefix's index and
// primary score, and the time spent interpolating prefixes that were not chosen.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/variable_classification.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/explicit/variable_set.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/expr/term.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/refine/sliced_prefixes.hpp"

namespace precis {

// ---- the variables an increment mentions ------------------------------------------------

inline void increment_variables(const VariableSet& inc, std::vector<VarId>& out) {
  out.insert(out.end(), inc.begin(), inc.end());
}
inline void increment_variables(const PredicateSet& inc, std::vector<VarId>& out) {
  for (Term p : inc) collect_vars(p, out);
}
// Product increments: the explicit part first (the first component that mentions any
// variable; ProductRefiner fills one component per refinement).
template <class... Ps>
void increment_variables(const ProductIncrement<Ps...>& inc, std::vector<VarId>& out) {
  const std::size_t before = out.size();
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((out.size() == before ? increment_variables(std::get<I>(inc.parts), out) : void()), ...);
  }
  (std::index_sequence_for<Ps...>{});
}

// ---- candidates and selectors -----------------------------------------------------------

enum class SelectionMode : std::uint8_t {
  None,    // no prefixes: Inner refines the whole path
  Select,  // Alg. 4: one prefix, chosen by the selector's score
  All      // the join of the increments of every prefix
};

// What a selector knows of one infeasible sliced prefix and its refinement.
struct PrefixCandidate {
  static constexpr std::size_t no_pivot = std::numeric_limits<std::size_t>::max();
  std::size_t index = 0;         // in path order: the index-th contradicting assume
  std::size_t length = 0;        // steps of the prefix (its contradicting assume is the last)
  std::vector<VarId> vars;       // variables of its increments, sorted, unique
  std::size_t pivot = no_pivot;  // least path position whose precision changes
  bool progress = true;          // the increments add something to the precision
};

// Lexicographic, lower is better.
using SelectionScore = std::vector<std::int64_t>;

template <class S>
concept PrefixSelector = requires(const S& s, const PrefixCandidate& c, SelectionScore& out) {
  s.score(c, out);
  { s.needs_interpolants() } -> std::convertible_to<bool>;
  { s.mode() } -> std::convertible_to<SelectionMode>;
};

namespace selection_detail {
inline std::int64_t as_key(std::size_t v) {
  return v > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(v);
}
}  // namespace selection_detail

// A selector that looks only at the prefix itself: candidates need no interpolation.
struct LengthSelector {
  [[nodiscard]] static constexpr bool needs_interpolants() { return false; }
  [[nodiscard]] static constexpr SelectionMode mode() { return SelectionMode::Select; }
};
// A selector that reads the increments.
struct IncrementSelector {
  [[nodiscard]] static constexpr bool needs_interpolants() { return true; }
  [[nodiscard]] static constexpr SelectionMode mode() { return SelectionMode::Select; }
};

// IV-A: the shortest infeasible prefix (rules out many similar paths early).
struct ShortestPrefix : LengthSelector {
  static constexpr const char* name = "shortest";
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    s.push_back(selection_detail::as_key(c.length));
  }
};

// IV-A: the longest one (counterexample minimisation: precision near the error).
struct LongestPrefix : LengthSelector {
  static constexpr const char* name = "longest";
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    s.push_back(-selection_detail::as_key(c.length));
  }
};

// IV-A: domain types of the variables in the interpolants: Boolean (0) < equality-only
// (1) < arithmetic (2) < loop counter (3); the worst variable, then how many.
class DomainTypeScore : public IncrementSelector {
 public:
  static constexpr const char* name = "domain";
  explicit DomainTypeScore(const Cfa& cfa)
      : vc_(std::make_shared<const VariableClassification>(classify_variables(cfa))) {}
  explicit DomainTypeScore(VariableClassification vc)
      : vc_(std::make_shared<const VariableClassification>(std::move(vc))) {}

  [[nodiscard]] int rank(VarId v) const {
    if (v >= vc_->size()) return 2;  // declared after the classification: assume the worst
    if (vc_->is_loop_counter(v)) return 3;
    return static_cast<int>(vc_->kind(v));
  }
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    int worst = -1;
    for (VarId v : c.vars) worst = std::max(worst, rank(v));
    s.push_back(worst);
    s.push_back(selection_detail::as_key(c.vars.size()));
  }
  [[nodiscard]] const VariableClassification& classification() const { return *vc_; }

 private:
  std::shared_ptr<const VariableClassification> vc_;
};

struct FewestVariables : IncrementSelector {
  static constexpr const char* name = "fewest-vars";
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    s.push_back(selection_detail::as_key(c.vars.size()));
  }
};

// IV-A (use-def estimate of the re-explored state space), by the pivot: the least path
// position whose precision the increments change (CEGAR prunes the ARG there).
// Shallow: the pivot nearest the root (precision early on the path).
struct ShallowPivot : IncrementSelector {
  static constexpr const char* name = "shallow";
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    s.push_back(selection_detail::as_key(c.pivot));  // no pivot: last
  }
};

// Deep: the pivot farthest from the root, so the least of the ARG is re-explored.
struct DeepPivot : IncrementSelector {
  static constexpr const char* name = "deep";
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    s.push_back(c.pivot == PrefixCandidate::no_pivot ? 1 : -selection_detail::as_key(c.pivot));
  }
};

struct JoinAllPrefixes {
  static constexpr const char* name = "all";
  [[nodiscard]] static constexpr bool needs_interpolants() { return true; }
  [[nodiscard]] static constexpr SelectionMode mode() { return SelectionMode::All; }
  void score(const PrefixCandidate& /*c*/, SelectionScore& /*s*/) const {}
};

struct NoSelection {
  static constexpr const char* name = "none";
  [[nodiscard]] static constexpr bool needs_interpolants() { return false; }
  [[nodiscard]] static constexpr SelectionMode mode() { return SelectionMode::None; }
  void score(const PrefixCandidate& /*c*/, SelectionScore& /*s*/) const {}
};

namespace selection_detail {
template <class S>
S make_selector(const Cfa& cfa) {
  if constexpr (std::constructible_from<S, const Cfa&>)
    return S(cfa);
  else
    return S{};
}
}  // namespace selection_detail

// Ties of the first selector broken by the next, and so on.
template <PrefixSelector... Ss>
requires(sizeof...(Ss) > 0 && ((Ss::mode() == SelectionMode::Select) && ...)) class Lexicographic {
 public:
  explicit Lexicographic(Ss... parts) : parts_(std::move(parts)...) {}
  explicit Lexicographic(const Cfa& cfa) : parts_(selection_detail::make_selector<Ss>(cfa)...) {}

  [[nodiscard]] bool needs_interpolants() const {
    return std::apply([](const Ss&... s) { return (s.needs_interpolants() || ...); }, parts_);
  }
  [[nodiscard]] static constexpr SelectionMode mode() { return SelectionMode::Select; }
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    std::apply([&](const Ss&... p) { (p.score(c, s), ...); }, parts_);
  }

 private:
  std::tuple<Ss...> parts_;
};

// The run-time selector: "none", "all", or a comma-separated lexicographic combination
// of "shortest", "longest", "domain", "fewest-vars", "shallow", "deep".
class PrefixSelection {
 public:
  using Key = std::variant<ShortestPrefix, LongestPrefix, DomainTypeScore, FewestVariables,
                           ShallowPivot, DeepPivot>;

  // The paper's default (section V): the domain-type score.
  explicit PrefixSelection(const Cfa& cfa) : mode_(SelectionMode::Select), spec_("domain") {
    keys_.emplace_back(DomainTypeScore(cfa));
  }
  PrefixSelection(SelectionMode mode, std::vector<Key> keys, std::string spec)
      : mode_(mode), keys_(std::move(keys)), spec_(std::move(spec)) {
    if (mode_ == SelectionMode::Select && keys_.empty())
      throw std::invalid_argument("a prefix selection needs at least one selector");
  }

  [[nodiscard]] SelectionMode mode() const { return mode_; }
  [[nodiscard]] bool needs_interpolants() const {
    if (mode_ == SelectionMode::All) return true;
    return std::any_of(keys_.begin(), keys_.end(), [](const Key& k) {
      return std::visit([](const auto& s) { return s.needs_interpolants(); }, k);
    });
  }
  void score(const PrefixCandidate& c, SelectionScore& s) const {
    for (const Key& k : keys_) std::visit([&](const auto& sel) { sel.score(c, s); }, k);
  }
  // The specification it was parsed from ("domain,shallow").
  [[nodiscard]] const std::string& spec() const noexcept { return spec_; }

 private:
  SelectionMode mode_;
  std::vector<Key> keys_;
  std::string spec_;
};

static_assert(PrefixSelector<PrefixSelection>);
static_assert(PrefixSelector<Lexicographic<DomainTypeScore, ShallowPivot>>);

inline constexpr const char* prefix_selection_help =
    "none, shortest, longest, domain, fewest-vars, shallow, deep, all; combine with commas "
    "(ties broken by the next), e.g. domain,shallow";

// Parses a --prefixes value. Throws std::invalid_argument naming the offending part.
inline PrefixSelection parse_prefix_selection(const std::string& spec, const Cfa& cfa) {
  std::vector<std::string> names;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = spec.find(',', from);
    std::string part = spec.substr(from, comma == std::string::npos ? comma : comma - from);
    const auto b = part.find_first_not_of(" \t");
    const auto e = part.find_last_not_of(" \t");
    part = b == std::string::npos ? std::string() : part.substr(b, e - b + 1);
    if (part.empty())
      throw std::invalid_argument("empty prefix selector in '" + spec + "' (" +
                                  prefix_selection_help + ")");
    names.push_back(std::move(part));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  std::vector<PrefixSelection::Key> keys;
  SelectionMode mode = SelectionMode::Select;
  for (const std::string& n : names) {
    if (n == "none" || n == "all") {
      if (names.size() > 1)
        throw std::invalid_argument("prefix selector '" + n + "' cannot be combined ('" + spec +
                                    "')");
      mode = n == "none" ? SelectionMode::None : SelectionMode::All;
    } else if (n == ShortestPrefix::name) {
      keys.emplace_back(ShortestPrefix{});
    } else if (n == LongestPrefix::name) {
      keys.emplace_back(LongestPrefix{});
    } else if (n == DomainTypeScore::name) {
      keys.emplace_back(DomainTypeScore(cfa));
    } else if (n == FewestVariables::name) {
      keys.emplace_back(FewestVariables{});
    } else if (n == ShallowPivot::name) {
      keys.emplace_back(ShallowPivot{});
    } else if (n == DeepPivot::name) {
      keys.emplace_back(DeepPivot{});
    } else {
      throw std::invalid_argument("unknown prefix selector '" + n + "' (" + prefix_selection_help +
                                  ")");
    }
  }
  return PrefixSelection(mode, std::move(keys), spec);
}

// ---- the refiner wrapper ----------------------------------------------------------------

// A name for the statistics of a wrapper around a refiner with increments Inc.
template <class Inc>
constexpr const char* increment_label() {
  if constexpr (std::same_as<Inc, VariableSet>)
    return "expl";
  else if constexpr (std::same_as<Inc, PredicateSet>)
    return "pred";
  else
    return "product";
}

template <Refiner Inner, PrefixSelector Selector = PrefixSelection,
          PrefixProvider Prefixes = prefix_provider_t<Inner>>
class SelectingRefiner {
 public:
  using increment_type = typename Inner::increment_type;
  using inner_type = Inner;
  using selector_type = Selector;
  using refinement_type = Refinement<increment_type>;
  // Whether `inc` at location l is already in the current precision.
  using precision_oracle = std::function<bool(Loc, const increment_type&)>;

  SelectingRefiner(Inner inner, Selector selector, Prefixes prefixes,
                   std::string label = increment_label<increment_type>())
      : inner_(std::move(inner)),
        selector_(std::move(selector)),
        prefixes_(std::move(prefixes)),
        label_(std::move(label)) {}
  // The prefix back end that matches Inner (prefix_provider).
  SelectingRefiner(const Cfa& cfa, Inner inner, Selector selector,
                   std::string label = increment_label<increment_type>())
      : inner_(std::move(inner)),
        selector_(std::move(selector)),
        prefixes_(prefix_provider<Inner>::make(cfa, inner_)),
        label_(std::move(label)) {}
  // As CEGAR<Analysis, SelectingRefiner<...>>(cfa) builds it: default inner refiner and
  // selector (PrefixSelection: the domain-type score).
  explicit SelectingRefiner(const Cfa& cfa) requires std::constructible_from<Inner, const Cfa&>
      : SelectingRefiner(cfa, Inner(cfa), selection_detail::make_selector<Selector>(cfa)) {}

  [[nodiscard]] Inner& inner() noexcept { return inner_; }
  [[nodiscard]] const Selector& selector() const noexcept { return selector_; }
  [[nodiscard]] Prefixes& prefixes() noexcept { return prefixes_; }
  void set_precision_oracle(precision_oracle known) { known_ = std::move(known); }
  void set_label(std::string label) { label_ = std::move(label); }

  // Alg. 4: Refine(sigma) with refinement selection.
  refinement_type refine(const ErrorPath& path, Statistics& stats) {
    pending_.clear();
    if (selector_.mode() == SelectionMode::None) return inner_.refine(path, stats);
    std::vector<SlicedPrefix> prefixes;
    {
      Stopwatch sw(stats.extra[key("time extracting (s)")]);
      prefixes = prefixes_.extract(path);
    }
    if constexpr (requires { prefixes_.solver_stats(); })
      stats.extra[key("solver calls")] = static_cast<double>(prefixes_.solver_stats().calls());
    // Feasible, or beyond the back end: exactly as Inner answers for the whole path.
    if (prefixes.empty()) return inner_.refine(path, stats);
    count_found(stats, prefixes.size());
    if (selector_.mode() == SelectionMode::All) return join_all(path, prefixes, stats);
    if (!selector_.needs_interpolants()) return select_by_prefix(path, prefixes, stats);
    return select_by_increments(path, prefixes, stats);
  }

  // CEGAR asks for more when the chosen increments changed no node of the path: the
  // next prefixes in the selector's order, then Inner's own refine_further (e.g. the
  // next component of a product refiner).
  refinement_type refine_further(const ErrorPath& path, Statistics& stats) {
    while (!pending_.empty()) {
      Pending p = std::move(pending_.front());
      pending_.pop_front();
      refinement_type r = p.done ? std::move(*p.done) : interpolate(p.path, stats);
      if (r.kind == RefinementKind::Spurious && !r.increments.empty()) {
        stats.extra[key("further prefixes tried")] += 1;
        return r;
      }
    }
    if constexpr (requires { inner_.refine_further(path, stats); })
      return inner_.refine_further(path, stats);
    return {};
  }

 private:
  struct Pending {
    ErrorPath path;
    std::optional<refinement_type> done;
  };

  std::string key(const char* what) const {
    std::string k = "sliced prefixes";
    if (!label_.empty()) k += " (" + label_ + ")";
    return k + ": " + what;
  }

  void count_found(Statistics& stats, std::size_t n) {
    auto& ex = stats.extra;
    const double refinements = ex[key("refinements")] += 1;
    const double total = ex[key("found")] += static_cast<double>(n);
    const std::string mn = key("min per refinement"), mx = key("max per refinement");
    ex[mn] = refinements == 1 ? static_cast<double>(n) : std::min(ex[mn], static_cast<double>(n));
    ex[mx] = std::max(ex[mx], static_cast<double>(n));
    ex[key("avg per refinement")] = total / refinements;
  }

  refinement_type interpolate(const ErrorPath& prefix, Statistics& stats) {
    stats.extra[key("interpolated")] += 1;
    return inner_.refine(prefix, stats);
  }

  // The candidate's variables, progress and pivot (the least position at which an
  // increment adds something the current precision lacks there; with scope or global
  // granularity the re-explored part of the ARG can start earlier).
  PrefixCandidate candidate(std::size_t index, const SlicedPrefix& p, const ErrorPath& path,
                            const refinement_type& r) const {
    PrefixCandidate c;
    c.index = index;
    c.length = p.length();
    c.progress = false;
    std::vector<VarId> vs;
    for (const auto& [i, inc] : r.increments) {
      vs.clear();
      increment_variables(inc, vs);
      if (vs.empty()) continue;
      c.vars.insert(c.vars.end(), vs.begin(), vs.end());
      if (known_ && i <= path.size() && known_(path.location(i), inc)) continue;
      c.progress = true;
      c.pivot = std::min(c.pivot, i);
    }
    std::sort(c.vars.begin(), c.vars.end());
    c.vars.erase(std::unique(c.vars.begin(), c.vars.end()), c.vars.end());
    return c;
  }

  void record_choice(Statistics& stats, std::size_t index, std::int64_t score, double unchosen_s) {
    auto& ex = stats.extra;
    ex[key("chosen index (last)")] = static_cast<double>(index);
    ex[key("chosen index (max)")] = std::max(ex[key("chosen index (max)")], double(index));
    ex[key("chosen score (last)")] = static_cast<double>(score);
    if (index != 0) ex[key("chosen other than the first")] += 1;
    ex[key("time interpolating unchosen (s)")] += unchosen_s;
  }

  // Alg. 4 with a selector that looks only at the prefixes: interpolate in its order
  // until one refutes.
  refinement_type select_by_prefix(const ErrorPath& path, std::vector<SlicedPrefix>& prefixes,
                                   Statistics& stats) {
    std::vector<std::pair<SelectionScore, std::size_t>> order;
    order.reserve(prefixes.size());
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      PrefixCandidate c;
      c.index = k;
      c.length = prefixes[k].length();
      SelectionScore s;
      selector_.score(c, s);
      order.emplace_back(std::move(s), k);
    }
    std::sort(order.begin(), order.end());
    double wasted = 0;
    for (std::size_t o = 0; o < order.size(); ++o) {
      const std::size_t k = order[o].second;
      double t = 0;
      refinement_type r;
      {
        Stopwatch sw(t);
        r = interpolate(prefixes[k].path, stats);
      }
      if (r.kind == RefinementKind::Spurious && !r.increments.empty()) {
        for (std::size_t rest = o + 1; rest < order.size(); ++rest)
          pending_.push_back({std::move(prefixes[order[rest].second].path), std::nullopt});
        record_choice(stats, k, order[o].first.empty() ? 0 : order[o].first.front(), wasted);
        return r;
      }
      wasted += t;
    }
    stats.extra[key("time interpolating unchosen (s)")] += wasted;
    return inner_.refine(path, stats);
  }

  // Alg. 4: interpolate every prefix, choose by the selector's score.
  refinement_type select_by_increments(const ErrorPath& path, std::vector<SlicedPrefix>& prefixes,
                                       Statistics& stats) {
    struct Trial {
      std::optional<Inner> refiner;  // the inner refiner's state after this prefix
      refinement_type result;
      double seconds = 0;
      SelectionScore score;
      std::size_t index = 0;
    };
    constexpr bool copyable = std::copy_constructible<Inner>;
    std::vector<Trial> trials;
    double total = 0;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      Trial t;
      t.index = k;
      {
        Stopwatch sw(t.seconds);
        stats.extra[key("interpolated")] += 1;
        if constexpr (copyable) {
          t.refiner.emplace(inner_);  // each prefix from the same state (Inner may learn)
          t.result = t.refiner->refine(prefixes[k].path, stats);
        } else {
          t.result = inner_.refine(prefixes[k].path, stats);
        }
      }
      total += t.seconds;
      if (t.result.kind != RefinementKind::Spurious || t.result.increments.empty()) continue;
      const PrefixCandidate c = candidate(k, prefixes[k], path, t.result);
      t.score.push_back(c.progress ? 0 : 1);  // increments that add nothing rank last
      selector_.score(c, t.score);
      trials.push_back(std::move(t));
    }
    if (trials.empty()) {
      stats.extra[key("time interpolating unchosen (s)")] += total;
      return inner_.refine(path, stats);
    }
    std::vector<std::size_t> order(trials.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return trials[a].score < trials[b].score;
    });
    Trial& best = trials[order.front()];
    if constexpr (copyable) inner_ = std::move(*best.refiner);
    for (std::size_t o = 1; o < order.size(); ++o)
      pending_.push_back({ErrorPath{}, std::move(trials[order[o]].result)});
    record_choice(stats, best.index, best.score.size() > 1 ? best.score[1] : 0,
                  total - best.seconds);
    return std::move(best.result);
  }

  // "all": every prefix's increments together (the join of their precisions).
  refinement_type join_all(const ErrorPath& path, const std::vector<SlicedPrefix>& prefixes,
                           Statistics& stats) {
    refinement_type out;
    for (const SlicedPrefix& p : prefixes) {
      refinement_type r = interpolate(p.path, stats);
      if (r.kind != RefinementKind::Spurious) continue;
      out.kind = RefinementKind::Spurious;
      for (auto& inc : r.increments) out.increments.push_back(std::move(inc));
    }
    if (out.kind != RefinementKind::Spurious) return inner_.refine(path, stats);
    std::stable_sort(out.increments.begin(), out.increments.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
  }

  Inner inner_;
  Selector selector_;
  Prefixes prefixes_;
  std::string label_;
  precision_oracle known_;
  std::deque<Pending> pending_;  // the other candidates of the last refinement, in order
};

// ---- products ---------------------------------------------------------------------------

// SelectingRefiner<ProductRefiner<R0, ...>>: the prefixes of the first component's back
// end (explicit values first).
template <class R0, class... Rs>
struct prefix_provider<ProductRefiner<R0, Rs...>> {
  using type = prefix_provider_t<R0>;
  static type make(const Cfa& cfa, ProductRefiner<R0, Rs...>& r) {
    return prefix_provider<R0>::make(cfa, r.template part<0>());
  }
};

// The explicit x predicate product with selection in each component: the explicit
// refiner's prefixes are selected first, and only paths explicit values cannot refute
// reach the predicate refiner's (SMT) prefixes (explicit-value paper III-F).
template <class Selector, class... Rs>
using SelectingProductRefiner = ProductRefiner<SelectingRefiner<Rs, Selector>...>;

template <class Selector, class... Rs>
SelectingProductRefiner<Selector, Rs...> make_selecting_product(const Cfa& cfa,
                                                                const Selector& selector,
                                                                Rs... parts) {
  return SelectingProductRefiner<Selector, Rs...>(
      SelectingRefiner<Rs, Selector>(cfa, std::move(parts), selector)...);
}

// ---- knowing the current precision ------------------------------------------------------

namespace selection_detail {
template <class P>
bool covered(const P& inc, const P& at) {
  return inc.leq(at);
}
template <class... Ps>
bool covered(const ProductIncrement<Ps...>& inc, const ProductPrecisionAt<Ps...>& at) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (std::get<I>(inc.parts).leq(*std::get<I>(at.parts)) && ...);
  }
  (std::index_sequence_for<Ps...>{});
}
}  // namespace selection_detail

// An oracle over the precision CEGAR holds (CEGAR::current_precision() returns a
// reference to its member, which always points to the current precision): the CEGAR
// object must outlive the refiner's use of it.
template <class Inc, class Precision>
std::function<bool(Loc, const Inc&)> precision_oracle(
    const std::shared_ptr<const Precision>& current) {
  return [&current](Loc l, const Inc& inc) {
    return current != nullptr && selection_detail::covered(inc, current->at(l));
  };
}

// Connects a selecting refiner (or a product of them) to the current precision, so that
// prefixes that add nothing rank last and pivots are exact per location:
//   precis::connect_precision(cegar.refiner(), cegar.current_precision());
template <class Inner, class Selector, class Prefixes, class Precision>
void connect_precision(SelectingRefiner<Inner, Selector, Prefixes>& r,
                       const std::shared_ptr<const Precision>& current) {
  using Inc = typename Inner::increment_type;
  r.set_precision_oracle(precision_oracle<Inc>(current));
}
template <class... Rs, class... LPs>
void connect_precision(ProductRefiner<Rs...>& r,
                       const std::shared_ptr<const ProductPrecision<LPs...>>& current) {
  static_assert(sizeof...(Rs) == sizeof...(LPs));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          auto& part = r.template part<I>();
          if constexpr (requires { part.set_precision_oracle({}); }) {
            using Inc = typename std::remove_cvref_t<decltype(part)>::increment_type;
            part.set_precision_oracle([&current](Loc l, const Inc& inc) {
              return current != nullptr && inc.leq(current->template get<I>().at(l));
            });
          }
        }(),
        ...);
  }
  (std::index_sequence_for<Rs...>{});
}
// Any other refiner: nothing to connect.
template <class R, class Precision>
void connect_precision(R& /*r*/, const std::shared_ptr<const Precision>& /*current*/) {}

}  // namespace precis
