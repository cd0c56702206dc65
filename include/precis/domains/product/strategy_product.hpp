#pragma once
// The explicit x predicate product with value enumeration, the limit k and the dropouts
// set (product-abstraction paper, chapter 3), with its three strategies as template
// policies of one analysis:
//
//   StateStrategy (Alg. 1): distinct values of a variable among one state's successors
//                           (and, as a safeguard, k * 64 values on a path);
//   PathStrategy  (Alg. 2): ... among the successors and the ancestors of the state (the
//                           values on the ARG path, carried in the element);
//   ArgStrategy   (Alg. 3): ... among the successors and every node of the ARG (an
//                           incremental cache, updated through the on_added / on_removed
//                           hooks of the CPA algorithm).
//
// In every strategy the explicit transfer enumerates values where it cannot evaluate
// (domains/product/value_enumeration.hpp). Once a variable has more than its limit of
// distinct values it joins the dropouts, leaves the explicit precision and the
// enumeration restarts without it (the do-while of Alg. 1 and 3; Alg. 2 drops before the
// transfer, which the same check does here since the ancestors' values are counted
// first). The dropouts live in a StrategyControl shared by the analysis and its refiner
// (refine/strategy_product_refiner.hpp); nothing is global.
//
//   auto control = std::make_shared<precis::StrategyControl>(5);     // k = 5
//   precis::StrategyProduct<precis::ArgStrategy> analysis(cfa, control);
//   precis::StrategyProductRefiner refiner(cfa, control);
//   precis::CEGAR<decltype(analysis), decltype(refiner)> cegar(cfa, opts, analysis, refiner);
//
// Never weaker than the explicit analysis. A counting loop
// (x := 0; while (x < 1000) x := x + 1; assert x = 1000) has 1001 values of x on one
// path: PATH and ARG drop x at any small k, and predicate refinement then unrolls the
// loop (each infeasible path exits the loop after n iterations; its interpolants say
// x <= n), one iteration per refinement. So the explicit precision is leveled: a
// variable at level L may take k * escalation^L values, and a dropout dropped at level
// L is tracked again where the precision holds it at a higher level. The refiner raises
// a dropout's level when explicit values would refute a path but for the dropout more
// than `patience` times (its predicates are not converging): x returns with a limit
// escalation times larger, so a bounded counter is handed back to the explicit domain
// after a logarithmic number of refinements, and an unbounded one still goes to the
// predicates at every level. The levels are those of domains/explicit/value_limits.hpp,
// which expl+pred shares (refine/value_limit_refiner.hpp). A level widens the values
// counted along a path or in the ARG, never one enumeration: that stops after k + 1
// models at any level.
//
// The predicate component is Cartesian by default (the paper's predicate states are
// sets of literals, section 2): with Boolean abstraction the predicates of independent
// dropouts (the locks family's p_i /= 0) multiply into 2^n cubes per post.

#include <boost/container/flat_map.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/value_limits.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/domains/product/value_enumeration.hpp"
#include "precis/expr/printer.hpp"

namespace precis {

// ---- the leveled explicit precision ---------------------------------------------------

// A set of tracked variables, each with a level: the variable may take
// k * escalation^level distinct values before it is dropped. Ordered by inclusion with
// higher levels above (a raised level is a refinement, so CEGAR prunes from there).
class LeveledVariables {
 public:
  using map_type = boost::container::flat_map<VarId, std::uint8_t>;
  LeveledVariables() = default;
  LeveledVariables(std::initializer_list<VarId> vs) {
    for (VarId v : vs) insert(v, 0);
  }

  [[nodiscard]] bool contains(VarId v) const { return vars_.contains(v); }
  // The level of v, or -1 if v is not tracked.
  [[nodiscard]] int level(VarId v) const {
    auto it = vars_.find(v);
    return it == vars_.end() ? -1 : it->second;
  }
  void insert(VarId v, std::uint8_t level) {
    auto [it, fresh] = vars_.try_emplace(v, level);
    if (!fresh) it->second = std::max(it->second, level);
  }
  [[nodiscard]] std::size_t size() const { return vars_.size(); }
  [[nodiscard]] bool empty() const { return vars_.empty(); }
  [[nodiscard]] auto begin() const { return vars_.begin(); }
  [[nodiscard]] auto end() const { return vars_.end(); }

  [[nodiscard]] bool leq(const LeveledVariables& o) const {
    auto oi = o.vars_.begin();
    for (const auto& [v, l] : vars_) {
      while (oi != o.vars_.end() && oi->first < v) ++oi;
      if (oi == o.vars_.end() || oi->first != v || oi->second < l) return false;
    }
    return true;
  }
  [[nodiscard]] LeveledVariables join(const LeveledVariables& o) const {
    LeveledVariables r = *this;
    for (const auto& [v, l] : o.vars_) r.insert(v, l);
    return r;
  }
  // Scoped precision: locals go to their function, globals everywhere.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, LeveledVariables>> split_by_scope(
      const ExprManager& em) const {
    std::vector<std::pair<std::uint32_t, LeveledVariables>> out;
    for (const auto& [v, l] : vars_) {
      const std::uint32_t s = em.variable(v).scope;
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == s; });
      if (it == out.end()) it = out.insert(out.end(), {s, LeveledVariables{}});
      it->second.insert(v, l);
    }
    return out;
  }
  friend bool operator==(const LeveledVariables&, const LeveledVariables&) = default;

 private:
  map_type vars_;
};

// ---- the limit k and the dropouts (shared by the analysis and its refiner) -----------

struct StrategyOptions {
  std::size_t k = 5;             // the paper's default limit
  std::uint32_t escalation = 8;  // a reinstated variable may take this many times more values
  std::uint32_t patience = 2;    // refused explicit refutations before a dropout returns
  std::uint8_t max_level = 8;    // no reinstatement beyond this level
};

class StrategyControl {
 public:
  StrategyControl() : StrategyControl(StrategyOptions{}) {}
  explicit StrategyControl(std::size_t k) : StrategyControl(StrategyOptions{.k = k}) {}
  explicit StrategyControl(StrategyOptions o)
      : opts_(o), limits_(ValueLimitOptions{o.k, o.escalation, o.patience, o.max_level}) {}

  [[nodiscard]] const StrategyOptions& options() const noexcept { return opts_; }
  [[nodiscard]] std::size_t k() const noexcept { return opts_.k; }

  // The number of distinct values a variable at this level may take.
  [[nodiscard]] std::size_t limit(int level) const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(limits_.limit_at(level), std::numeric_limits<std::size_t>::max()));
  }
  // v was dropped at `level` or above (so the explicit precision at `level` does not
  // track it).
  [[nodiscard]] bool dropped_at(VarId v, int level) const {
    auto it = dropped_.find(v);
    return it != dropped_.end() && static_cast<int>(it->second) >= level;
  }
  // The dropouts set: variables dropped at their current level.
  [[nodiscard]] bool is_dropout(VarId v) const { return dropped_at(v, level(v)); }
  [[nodiscard]] std::vector<VarId> dropouts() const {
    std::vector<VarId> out;
    for (const auto& [v, l] : dropped_)
      if (static_cast<int>(l) >= level(v)) out.push_back(v);
    return out;
  }
  [[nodiscard]] bool any_dropout() const {
    return std::any_of(dropped_.begin(), dropped_.end(),
                       [&](const auto& d) { return static_cast<int>(d.second) >= level(d.first); });
  }
  // Every variable ever dropped (with the level it was last dropped at).
  [[nodiscard]] const boost::container::flat_map<VarId, std::uint8_t>& ever_dropped() const {
    return dropped_;
  }
  // The level the refiner gives v in new explicit increments.
  [[nodiscard]] int level(VarId v) const { return limits_.level(v); }

  // Alg. 1-3, lines 8-9: dropouts := dropouts + {v}, pi_e := pi_e - {v}.
  void drop(VarId v, int level) {
    auto [it, fresh] = dropped_.try_emplace(v, static_cast<std::uint8_t>(level));
    if (!fresh) it->second = std::max(it->second, static_cast<std::uint8_t>(level));
    limits_.reset_refusals(v);
    ++drops_;
  }
  // The refiner saw explicit values refute a path but for dropout v; true when v has
  // been refused more than `patience` times at this level and returns one level up.
  bool refuse(VarId v) { return limits_.refuse(v); }
  // Predicates the refiner kept for a dropped variable.
  void note_predicate(VarId v, Term p) { predicates_[v].insert(p); }
  [[nodiscard]] const std::map<VarId, PredicateSet>& predicates() const { return predicates_; }

  void note_restart() { ++restarts_; }
  [[nodiscard]] std::size_t drops() const noexcept { return drops_; }
  [[nodiscard]] std::size_t restarts() const noexcept { return restarts_; }
  [[nodiscard]] std::size_t reinstatements() const noexcept { return limits_.escalations(); }

 private:
  StrategyOptions opts_;
  ValueLimits limits_;  // levels and refusals
  boost::container::flat_map<VarId, std::uint8_t> dropped_;
  std::map<VarId, PredicateSet> predicates_;
  std::size_t drops_ = 0;
  std::size_t restarts_ = 0;
};

// ---- the strategies -------------------------------------------------------------------

namespace strategy_detail {

// A component with no information, for the strategies that carry nothing in elements.
struct NoMemo {
  friend bool operator==(const NoMemo&, const NoMemo&) = default;
};
// Memos record the search, not the program state: true in a certificate (certify/).
inline Term to_formula(const NoMemo&, ExprManager& em) { return em.true_(); }

// A component outside the lattice: leq always holds, so covering and merge ignore it.
template <class M>
struct MemoDomain {
  using element = M;
  [[nodiscard]] element bottom() const { return element{}; }
  [[nodiscard]] bool is_bottom(const element&) const { return false; }
  [[nodiscard]] bool leq(const element&, const element&) const { return true; }
  [[nodiscard]] element join(const element& a, const element&) const { return a; }
};

inline bool insert_sorted(std::vector<std::int64_t>& vs, std::int64_t x) {
  auto it = std::lower_bound(vs.begin(), vs.end(), x);
  if (it != vs.end() && *it == x) return false;
  vs.insert(it, x);
  return true;
}

}  // namespace strategy_detail

// The distinct values of every variable on the path to a state (the state included);
// shared between states, copied per variable when a value is new on the path.
class PathValues {
 public:
  using values = std::vector<std::int64_t>;
  using map_type = boost::container::flat_map<VarId, std::shared_ptr<const values>>;

  [[nodiscard]] const values* of(VarId v) const {
    if (!m_) return nullptr;
    auto it = m_->find(v);
    return it == m_->end() ? nullptr : it->second.get();
  }
  // This path extended by the state s.
  [[nodiscard]] PathValues with(const ExplicitState& s) const {
    std::shared_ptr<map_type> copy;
    for (const auto& [v, x] : s.values()) {
      const values* old = copy ? nullptr : of(v);
      if (copy) {
        auto it = copy->find(v);
        old = it == copy->end() ? nullptr : it->second.get();
      }
      if (old && std::binary_search(old->begin(), old->end(), x)) continue;
      if (!copy) copy = m_ ? std::make_shared<map_type>(*m_) : std::make_shared<map_type>();
      auto nv = old ? std::make_shared<values>(*old) : std::make_shared<values>();
      strategy_detail::insert_sorted(*nv, x);
      (*copy)[v] = std::move(nv);
    }
    if (!copy) return *this;
    PathValues r;
    r.m_ = std::move(copy);
    return r;
  }
  friend bool operator==(const PathValues& a, const PathValues& b) { return a.m_ == b.m_; }

 private:
  std::shared_ptr<const map_type> m_;
};
inline Term to_formula(const PathValues&, ExprManager& em) { return em.true_(); }

namespace strategy_detail {
// |values on the path + succ|.
inline std::size_t on_path_with(VarId v, const PathValues& m,
                                const std::vector<std::int64_t>& succ) {
  const auto* on_path = m.of(v);
  if (!on_path) return succ.size();
  std::size_t n = on_path->size();
  for (std::int64_t x : succ) n += std::binary_search(on_path->begin(), on_path->end(), x) ? 0 : 1;
  return n;
}
}  // namespace strategy_detail

// Alg. 1: the successors of one state count. A deterministic assignment has one
// successor, so Alg. 1 alone never drops a loop counter, and a loop up to a havocked
// bound unrolls for ever (the explicit analysis' weakness, where predicates would
// succeed, and the product must be no weaker than predicates alone). So a variable is also
// dropped once it has more than path_factor times its limit of values on one path
// (at k = 1, 64: the value limit of today's expl+pred).
struct StateStrategy {
  static constexpr const char* name = "state";
  using memo = PathValues;
  std::size_t path_factor = 64;
  [[nodiscard]] bool exceeds(VarId v, const memo& m, const std::vector<std::int64_t>& succ,
                             std::size_t limit) const {
    if (succ.size() > limit) return true;
    const std::size_t path_limit =
        limit > std::numeric_limits<std::size_t>::max() / path_factor ? limit : limit * path_factor;
    return strategy_detail::on_path_with(v, m, succ) > path_limit;
  }
  [[nodiscard]] memo next(const memo& m, const ExplicitState& s) const { return m.with(s); }
};

// Alg. 2: the ancestors' values count too.
struct PathStrategy {
  static constexpr const char* name = "path";
  using memo = PathValues;
  [[nodiscard]] bool exceeds(VarId v, const memo& m, const std::vector<std::int64_t>& succ,
                             std::size_t limit) const {
    return strategy_detail::on_path_with(v, m, succ) > limit;
  }
  [[nodiscard]] memo next(const memo& m, const ExplicitState& s) const { return m.with(s); }
};

// Alg. 3: every node of the ARG counts. The cache holds, per variable, how many live
// ARG nodes bind it to each value: adding and removing a node costs its bindings, and
// the number of distinct values is the size of the variable's map. (Counts are kept
// for dropped variables as well, so the cache stays exact if one is reinstated.)
class ArgStrategy {
 public:
  static constexpr const char* name = "arg";
  using memo = strategy_detail::NoMemo;

  [[nodiscard]] bool exceeds(VarId v, const memo&, const std::vector<std::int64_t>& succ,
                             std::size_t limit) const {
    auto it = counts_.find(v);
    if (it == counts_.end()) return succ.size() > limit;
    std::size_t n = it->second.size();
    for (std::int64_t x : succ) n += it->second.contains(x) ? 0 : 1;
    return n > limit;
  }
  [[nodiscard]] memo next(const memo& m, const ExplicitState&) const { return m; }

  void on_added(const ExplicitState& s) {
    for (const auto& [v, x] : s.values()) ++counts_[v][x];
  }
  void on_removed(const ExplicitState& s) {
    for (const auto& [v, x] : s.values()) {
      auto it = counts_.find(v);
      if (it == counts_.end()) continue;
      auto jt = it->second.find(x);
      if (jt == it->second.end()) continue;
      if (--jt->second == 0) it->second.erase(jt);
    }
  }
  // Distinct values of v among the live ARG nodes.
  [[nodiscard]] std::size_t values_in_arg(VarId v) const {
    auto it = counts_.find(v);
    return it == counts_.end() ? 0 : it->second.size();
  }

 private:
  std::unordered_map<VarId, std::unordered_map<std::int64_t, std::uint32_t>> counts_;
};

// ---- the product analysis -------------------------------------------------------------

template <class Strategy, class PredA = PredCart>
class StrategyProduct {
  using memo = typename Strategy::memo;
  using memo_domain = strategy_detail::MemoDomain<memo>;

 public:
  using strategy_type = Strategy;
  using domain_type = ProductLattice<ExplicitDomain, typename PredA::domain_type, memo_domain>;
  using element = typename domain_type::element;
  using explicit_precision = LocalPrecision<LeveledVariables>;
  using predicate_precision = typename PredA::precision;
  using precision = ProductPrecision<explicit_precision, predicate_precision>;
  using merge_type = MergeSep;

  StrategyProduct(const Cfa& cfa, std::shared_ptr<StrategyControl> control, PredA pred,
                  Cvc5Options solver = {})
      : cfa_(&cfa),
        core_(std::make_shared<Core>(cfa, std::move(pred), std::move(solver))),
        control_(std::move(control)) {}
  StrategyProduct(const Cfa& cfa, std::shared_ptr<StrategyControl> control) requires
      std::constructible_from<PredA, const Cfa&>
      : StrategyProduct(cfa, std::move(control), PredA(cfa)) {}
  explicit StrategyProduct(const Cfa& cfa,
                           std::size_t k = 5) requires std::constructible_from<PredA, const Cfa&>
      : StrategyProduct(cfa, std::make_shared<StrategyControl>(k)) {}

  [[nodiscard]] const domain_type& domain() const { return core_->lattice; }
  [[nodiscard]] element initial_element() const {
    return element{std::tuple{ExplicitState{}, core_->pred.initial_element(), memo{}}};
  }
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return precision(explicit_precision(*cfa_, g, LeveledVariables{}),
                     core_->pred.initial_precision(g));
  }

  [[nodiscard]] const std::shared_ptr<StrategyControl>& control() const { return control_; }
  [[nodiscard]] Strategy& strategy() const { return core_->strategy; }
  [[nodiscard]] PredA& predicate_analysis() const { return core_->pred; }
  [[nodiscard]] const ValueEnumerator& enumerator() const { return core_->enumerator; }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& pi, Sink&& sink) {
    Core& c = *core_;
    std::vector<typename PredA::element> preds;
    c.pred.successors(e.template get<1>(), edge, pi.template get<1>(),
                      [&](auto&& p) { preds.push_back(std::move(p)); });
    if (preds.empty()) return;
    const LeveledVariables& pe = pi.template get<0>().at(edge.target);
    const ExplicitState& from = e.template get<0>();
    const memo& m = e.template get<2>();
    const auto tracked = tracked_in(pe);
    // One enumeration yields at most k values at any level (Alg. 1-3 at level 0); a
    // reinstated variable's larger limit is for the values counted along the path or
    // in the ARG (a counter), not for one nondeterministic choice (havoc x; assume
    // INT_MIN <= x <= INT_MAX would otherwise ask the solver for limit + 1 models).
    const auto exceeds = [&](VarId v, const std::vector<std::int64_t>& values) {
      return values.size() > control_->k() ||
             c.strategy.exceeds(v, m, values, control_->limit(pe.level(v)));
    };
    // Alg. 1 / 3: enumerate; if some variable has too many values, drop it and restart.
    std::vector<ExplicitState> succ;
    for (;;) {
      Enumeration en = c.enumerator.successors(from, edge.operation(), tracked, exceeds);
      std::vector<VarId> over = std::move(en.exceeded);
      if (over.empty()) {
        succ = std::move(en.successors);
        for (auto& s : succ) restrict(s, tracked);
        over = too_many(succ, exceeds);
      }
      if (over.empty()) break;
      for (VarId v : over) control_->drop(v, pe.level(v));
      control_->note_restart();
    }
    for (const auto& s : succ) {
      const memo next = c.strategy.next(m, s);
      for (const auto& p : preds) sink(element{std::tuple{s, p, next}});
    }
  }

  // Precision adjustment: restriction to the variables tracked (and not dropped) at loc.
  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& pi,
                                                    Loc loc) const {
    return adjust(element(e), pi, loc);
  }
  [[nodiscard]] Adjusted<element, precision> adjust(element&& e, const precision& pi,
                                                    Loc loc) const {
    element r = std::move(e);
    const LeveledVariables& pe = pi.template get<0>().at(loc);
    restrict(r.template get<0>(), tracked_in(pe));
    return {std::move(r), std::nullopt, Action::Continue};
  }

  // The ARG hooks of the CPA algorithm (the ARG strategy's cache, Alg. 3).
  void on_added(const element& e) {
    if constexpr (requires { core_->strategy.on_added(e.template get<0>()); })
      core_->strategy.on_added(e.template get<0>());
  }
  void on_removed(const element& e) {
    if constexpr (requires { core_->strategy.on_removed(e.template get<0>()); })
      core_->strategy.on_removed(e.template get<0>());
  }

  void report(Statistics& st) const {
    if constexpr (ReportsStatistics<decltype(core_->pred)>) core_->pred.report(st);
    const auto& es = core_->enumerator.stats();
    auto& x = st.extra;
    x["prod limit k"] = static_cast<double>(control_->k());
    x["prod dropouts"] = static_cast<double>(control_->dropouts().size());
    x["prod drops"] = static_cast<double>(control_->drops());
    x["prod enumeration restarts"] = static_cast<double>(control_->restarts());
    x["prod reinstatements"] = static_cast<double>(control_->reinstatements());
    x["prod enumerations"] = static_cast<double>(es.enumerations);
    x["prod enumerated values"] = static_cast<double>(es.models);
    x["prod enumeration cache hits"] = static_cast<double>(es.cache_hits);
    x["prod enumeration given up"] = static_cast<double>(es.given_up);
    x["prod enumeration ranges as havoc"] = static_cast<double>(es.ranges);
    x["prod enumeration solver calls"] =
        static_cast<double>(core_->enumerator.solver_stats().calls());
    x["prod enumeration solver time s"] = core_->enumerator.solver_stats().seconds();
    // The dropouts and the predicates the refiner kept for each dropped variable.
    const ExprManager& em = *cfa_->expr_manager();
    auto& dropped = st.lists["prod dropped variables"];
    dropped.clear();
    for (VarId v : control_->dropouts()) dropped.push_back(em.variable(v).name);
    for (const auto& [v, ps] : control_->predicates()) {
      auto& out = st.lists["prod predicates of " + em.variable(v).name];
      out.clear();
      for (Term p : ps) out.push_back(to_string(p, em));
    }
  }

 private:
  struct Core {
    Core(const Cfa& cfa, PredA p, Cvc5Options solver)
        : pred(std::move(p)),
          enumerator(*cfa.expr_manager(), std::move(solver)),
          lattice(&expl, &pred.domain(), &memos) {}
    ExplicitDomain expl;
    PredA pred;
    memo_domain memos;
    ValueEnumerator enumerator;
    Strategy strategy;
    domain_type lattice;
  };

  // v is in the explicit precision pe and not dropped at its level there.
  [[nodiscard]] auto tracked_in(const LeveledVariables& pe) const {
    return [&pe, this](VarId v) {
      const int l = pe.level(v);
      return l >= 0 && !control_->dropped_at(v, l);
    };
  }

  template <class Tracked>
  static void restrict(ExplicitState& s, const Tracked& tracked) {
    if (s.is_bottom()) return;
    const auto& vals = s.values();
    if (std::all_of(vals.begin(), vals.end(), [&](const auto& kv) { return tracked(kv.first); }))
      return;
    typename ExplicitState::map_type::sequence_type keep;
    keep.reserve(vals.size());
    for (const auto& kv : vals)
      if (tracked(kv.first)) keep.push_back(kv);
    ExplicitState r;
    r.adopt_sorted(std::move(keep));
    s = std::move(r);
  }

  // Variables with more than their limit of distinct values among the successors (and
  // the strategy's context); the bindings of each successor are sorted by variable, so
  // one merge pass per successor groups them.
  template <class Exceeds>
  static std::vector<VarId> too_many(const std::vector<ExplicitState>& succ,
                                     const Exceeds& exceeds) {
    boost::container::flat_map<VarId, std::vector<std::int64_t>> values;
    for (const auto& s : succ)
      for (const auto& [v, x] : s.values()) strategy_detail::insert_sorted(values[v], x);
    std::vector<VarId> over;
    for (const auto& [v, xs] : values)
      if (exceeds(v, xs)) over.push_back(v);
    return over;
  }

  const Cfa* cfa_;
  std::shared_ptr<Core> core_;
  std::shared_ptr<StrategyControl> control_;
};

using ProdState = StrategyProduct<StateStrategy>;
using ProdPath = StrategyProduct<PathStrategy>;
using ProdArg = StrategyProduct<ArgStrategy>;

}  // namespace precis
